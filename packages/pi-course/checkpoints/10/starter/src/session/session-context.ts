// Checkpoint 10 · 学习脚手架：interruptedResult()（补给缺结果的调用的 aborted 结果）已经写好，
// messagesOnPath() 用你在实践 10.1 写的 pathTo()；Lab 10.6 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 10.6` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="消息投影" packages/pi-coding-agent/dist/test/10-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
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
  // Lab 10.6 ①：沿 pathTo(entries, leafId) 的副本走（根 → 叶），只看 message 条目。记住“当前这一批”：
  // 最近一条带调用的 assistant 和它还没有得到结果的调用（toolCallsOf）。
  // Lab 10.6 ②：toolResult 必须回答这一批里还没回答的某个调用：否则抛出一行错误，点名这个条目的 id；
  // 回答了就把那个调用从这一批里去掉，再放进结果。
  // Lab 10.6 ③：遇到 user 或 assistant、以及走到叶之后，这一批里还没回答的调用按声明顺序各补一条
  // interruptedResult(call, assistant)，再放进这条消息；带调用的 assistant 开始新的一批。
  throw new Error("Lab 10.6 把活动分支投影成消息 尚未实现");
}
