// Checkpoint 11 · 学习脚手架：Interaction 的形状（起止下标）已经声明；toolCallsOf() 来自 @pi/core。
// Lab 11.2 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 11.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="交互分组" packages/pi-coding-agent/dist/test/11-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import { type Message, toolCallsOf } from "@pi/core";

/** Messages `start` up to (not including) `end` of the list that was grouped. */
export interface Interaction {
  start: number;
  end: number;
}

/**
 * `messages` split at user messages (messages before the first user message are an interaction
 * of their own). The results of an assistant's calls may come in any order but must all come
 * before the next user or assistant message: an orphan result, a second result for a call and a
 * call left without a result are each one line naming the call id.
 */
export function groupInteractions(messages: readonly Message[]): Interaction[] {
  // Lab 11.2 ①：逐条走 messages，记住当前这段的 start。遇到 user 消息（且不是第一条）就把 { start, end: index }
  // 放进结果，从这里开始新的一段：只在用户消息处切开，所以调用与结果总在同一段。
  // Lab 11.2 ②：记住最近一条 assistant 还没回答的调用 id（open）和已经回答的（answered）。toolResult 已被回答过
  // 就是重复的结果，不在 open 里就是孤立的结果：各一行报错点名调用 id；否则从 open 移到 answered（顺序随意）。
  // Lab 11.2 ③：user 或 assistant 到来时 open 还有调用，就是“没有结果的调用”，一行报错点名它；assistant
  // 开始新的一批（open 与 answered 都重新开始）。走完后 open 仍不空同样报错；有消息就把最后一段放进结果。
  throw new Error("Lab 11.2 把活动路径分成交互 尚未实现");
}
