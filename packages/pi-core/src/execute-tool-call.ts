import { argumentProblem } from "./argument-validation.js";
import { errorMessageOf } from "./errors.js";
import { type TextContent, type ToolCall, type ToolResultMessage, text } from "./messages.js";
import type { ToolExecutionContext, ToolOutput, ToolRegistry } from "./tools.js";

/**
 * Chapter 06: looks the tool up, validates the arguments against its schema,
 * runs it, and returns a result paired to call.id / call.name. An unknown tool,
 * invalid arguments, a throwing tool or malformed output become an isError
 * result (message only, never a stack); it never rejects for those.
 */
export async function executeToolCall(
  call: ToolCall,
  registry: ToolRegistry,
  context: ToolExecutionContext,
): Promise<ToolResultMessage> {
  const tool = registry.get(call.name);
  if (tool === undefined) {
    return toolErrorResult(call, `Tool "${call.name}" is not registered.`);
  }

  const problem = argumentProblem(tool.parameters, call.arguments);
  if (problem !== undefined) {
    return toolErrorResult(call, `Invalid arguments for tool "${call.name}": ${problem}`);
  }

  let output: unknown;
  try {
    output = await tool.execute(call.arguments, context);
  } catch (error) {
    return toolErrorResult(call, errorMessageOf(error));
  }
  if (!isToolOutput(output)) {
    return toolErrorResult(call, `Tool "${call.name}" returned malformed output: expected { content: TextContent[] }.`);
  }
  return pairedResult(call, output);
}

/** The result of a call that ran: the call's id and name, the tool's content, and its details when it gave any. */
function pairedResult(call: ToolCall, output: ToolOutput): ToolResultMessage {
  const result: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
    isError: false,
    timestamp: Date.now(),
  };
  if (output.details !== undefined) result.details = output.details;
  return result;
}

/** An isError result paired to `call`, carrying one line of text. */
export function toolErrorResult(call: ToolCall, message: string, details?: unknown): ToolResultMessage {
  const result: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [text(message)],
    isError: true,
    timestamp: Date.now(),
  };
  if (details !== undefined) result.details = details;
  return result;
}

function isToolOutput(value: unknown): value is ToolOutput {
  if (typeof value !== "object" || value === null) return false;
  const { content } = value as { content?: unknown };
  return Array.isArray(content) && content.every(isTextContent);
}

function isTextContent(value: unknown): value is TextContent {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as TextContent).type === "text" &&
    typeof (value as TextContent).text === "string"
  );
}
