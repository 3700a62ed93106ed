// The active branch as the messages the Agent runs on: the message entries of root → leaf, in
// order, every tool call followed by its result. A branch can end between a call and its result
// (a run stopped hard mid-batch, or a leaf chosen on the assistant itself): those calls get an
// aborted result here, as the loop gives a call it never ran, so the next request is valid.
import { type AssistantMessage, type Message, type ToolCall, type ToolResultMessage, toolCallsOf } from "@pi/core";
import type { SessionEntry } from "./entries.js";
import { pathTo } from "./session-tree.js";

export const INTERRUPTED_CALL = "Tool call was interrupted before its result was saved.";

/** The aborted result of a call whose result the branch does not hold. */
export function interruptedResult(call: ToolCall, assistant: AssistantMessage): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: INTERRUPTED_CALL }],
    details: { skipped: true, reason: "aborted" },
    isError: true,
    timestamp: assistant.timestamp,
  };
}

/**
 * The messages of the branch root → `leafId` (copies: nothing is shared with `entries`), every
 * call paired. A result whose call is not the open batch's is one line naming its entry.
 */
export function messagesOnPath(entries: readonly SessionEntry[], leafId: string): Message[] {
  const messages: Message[] = [];
  let open: { assistant: AssistantMessage; calls: ToolCall[] } | undefined;
  const closeBatch = () => {
    if (open !== undefined) for (const call of open.calls) messages.push(interruptedResult(call, open.assistant));
    open = undefined;
  };
  for (const entry of pathTo(entries, leafId)) {
    if (entry.type !== "message") continue;
    const { message } = entry;
    if (message.role === "toolResult") {
      const index = open?.calls.findIndex((call) => call.id === message.toolCallId) ?? -1;
      if (open === undefined || index === -1) {
        throw new Error(
          `条目 ${entry.id} 是调用 ${message.toolCallId} 的结果，但这条分支上它前面的 assistant 没有这个调用`,
        );
      }
      open.calls.splice(index, 1);
      messages.push(message);
      continue;
    }
    closeBatch();
    messages.push(message);
    if (message.role === "assistant" && toolCallsOf(message).length > 0) {
      open = { assistant: message, calls: toolCallsOf(message) };
    }
  }
  closeBatch();
  return messages;
}
