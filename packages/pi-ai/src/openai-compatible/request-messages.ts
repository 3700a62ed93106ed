// Course messages → Chat Completions messages.
import type { AssistantMessage, Message, TextContent, ToolResultMessage } from "@pi/core";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from "openai/resources/chat/completions";
import type { ResolvedOptions } from "./options.js";

type Compat = ResolvedOptions["compat"];

function joinText(content: string | TextContent[]): string {
  return typeof content === "string" ? content : content.map((block) => block.text).join("\n");
}

/** An assistant turn with no text and no calls (an aborted or failed one) is left out: servers reject it. */
function assistantParam(message: AssistantMessage, compat: Compat): ChatCompletionAssistantMessageParam | undefined {
  let text = "";
  const toolCalls: NonNullable<ChatCompletionAssistantMessageParam["tool_calls"]> = [];
  for (const block of message.content) {
    if (block.type === "text") text += text === "" ? block.text : `\n${block.text}`;
    else {
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.arguments) },
      });
    }
  }
  if (toolCalls.length === 0) return text === "" ? undefined : { role: "assistant", content: text };
  return { role: "assistant", content: text === "" ? compat.emptyAssistantContent : text, tool_calls: toolCalls };
}

function toolParam(message: ToolResultMessage, compat: Compat): ChatCompletionToolMessageParam {
  const param: ChatCompletionToolMessageParam = {
    role: "tool",
    tool_call_id: message.toolCallId,
    content: joinText(message.content),
  };
  // Not in the SDK's type: some servers want the tool's name on its result.
  return compat.toolResultName ? ({ ...param, name: message.toolName } as ChatCompletionToolMessageParam) : param;
}

export function chatMessages(
  systemPrompt: string | undefined,
  messages: Message[],
  compat: Compat,
): ChatCompletionMessageParam[] {
  const params: ChatCompletionMessageParam[] = [];
  if (systemPrompt !== undefined && systemPrompt !== "")
    params.push({ role: compat.systemRole, content: systemPrompt });
  for (const message of messages) {
    switch (message.role) {
      case "user":
        params.push({ role: "user", content: joinText(message.content) });
        break;
      case "assistant": {
        const param = assistantParam(message, compat);
        if (param !== undefined) params.push(param);
        break;
      }
      case "toolResult":
        params.push(toolParam(message, compat));
        break;
    }
  }
  return params;
}
