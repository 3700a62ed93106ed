// Checkpoint 00 · 学习脚手架：danglingCalls() 的签名已经写好，函数体先抛出“尚未实现”。
// 完成 `// Lab 0.1` 注释描述的动作，删除临时错误，然后运行聚焦测试：
//   npm run build -w @pi/core
//   node --test packages/pi-core/dist/test/00-*.test.js
// biome-ignore-all lint/correctness: the unfinished lab leaves the parameter and the import unused until written.
import { type Message, type ToolCall, toolCallsOf } from "./messages.js";

/**
 * The tool calls of a transcript that never got their result. A call is answered only by a
 * toolResult with its id that comes after it and before the next assistant message: the model
 * must see every result before it writes more text, so a result that comes later does not count.
 * An error result (isError: true) answers its call like any other; the walk follows the transcript's
 * order, not the timestamps.
 */
export function danglingCalls(messages: readonly Message[]): ToolCall[] {
  // Lab 0.1 找出悬空的工具调用：按顺序走一遍 messages，用一个“还没有结果的调用”列表（open）记账：
  //   ① 遇到 assistant：open 里剩下的调用再也等不到结果了，记进 dangling；然后 open 换成这条
  //      assistant 的调用（toolCallsOf(message)，按声明顺序）。
  //   ② 遇到 toolResult：从 open 里去掉 id 等于 message.toolCallId 的调用（只按 id 配对，不看顺序；isError 的结果也算回答）。
  //   ③ 走完以后，open 里剩下的也悬空：返回 dangling 加上它们。user 消息不改变 open。
  throw new Error("Lab 0.1 找出悬空的工具调用 尚未实现");
}
