import { type Message, type ToolCall, toolCallsOf } from "./messages.js";

/**
 * The tool calls of a transcript that never got their result. A call is answered only by a
 * toolResult with its id that comes after it and before the next assistant message: the model
 * must see every result before it writes more text, so a result that comes later does not count.
 * An error result (isError: true) answers its call like any other; the walk follows the transcript's
 * order, not the timestamps.
 */
export function danglingCalls(messages: readonly Message[]): ToolCall[] {
  const dangling: ToolCall[] = [];
  let open: ToolCall[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      dangling.push(...open);
      open = toolCallsOf(message);
    } else if (message.role === "toolResult") {
      open = open.filter((call) => call.id !== message.toolCallId);
    }
  }
  return [...dangling, ...open];
}
