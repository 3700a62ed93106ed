import assert from "node:assert/strict";
import type { Message } from "@pi/core";

/**
 * Every assistant's calls are followed at once by their results, in call order: nothing (a
 * steered user message, say) sits in the middle of a batch. `where` names the transcript.
 */
export function assertPaired(messages: Message[], where: string): void {
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const ids = message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
    const next = messages.slice(index + 1, index + 1 + ids.length);
    assert.deepEqual(
      next.map((entry) => (entry.role === "toolResult" ? entry.toolCallId : `(${entry.role})`)),
      ids,
      `${where}：调用 ${ids.join(",")} 之后紧跟着各自的结果`,
    );
  });
}
