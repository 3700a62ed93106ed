// A course ModelRequest → the body of POST {baseURL}/chat/completions.
import type { ModelRequest, ToolDefinition } from "@pi/core";
import type { ChatCompletionCreateParamsStreaming, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ResolvedOptions } from "./options.js";
import { chatMessages } from "./request-messages.js";
import { withUserImages } from "./user-images.js";

function chatTool(definition: ToolDefinition): ChatCompletionTool {
  return {
    type: "function",
    function: {
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters as Record<string, unknown>,
    },
  };
}

export function chatCompletionParams(
  request: ModelRequest,
  options: ResolvedOptions,
): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: options.model,
    messages: withUserImages(chatMessages(request.systemPrompt, request.messages, options.compat), request.messages),
    stream: true,
  };
  if (options.compat.includeUsage) params.stream_options = { include_usage: true };
  // Some servers reject `tools: []`.
  if (request.tools.length > 0) params.tools = request.tools.map(chatTool);
  if (request.output === "json" && options.compat.jsonOutput) params.response_format = { type: "json_object" };
  return params;
}
