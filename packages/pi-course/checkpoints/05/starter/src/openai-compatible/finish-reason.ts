// Checkpoint 05 · 学习脚手架（6 个教学文件的第 4 个）：finish_reason → 这一轮怎样结束。这一段还包括 chunk-mapper.ts 里的三处 Lab 5.4。
// 完成 `// Lab 5.4` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/ai
//   node --test --test-name-pattern="文本与终态" packages/pi-ai/dist/test/05-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.

export type FinishOutcome = { reason: "stop" | "toolUse" | "length" } | { error: string };

export function mapFinishReason(finishReason: string | undefined): FinishOutcome {
  // Lab 5.4 ④：只认识三个成功的原因："stop" → { reason: "stop" }，"tool_calls" → { reason: "toolUse" }，
  // "length" → { reason: "length" }。逐字比较（"STOP" 不是 "stop"：不 trim、不转小写）。其余都是 { error }，而且不猜：
  //   undefined        → "no finish_reason: the stream ended before the server finished the answer"
  //   "content_filter" → 'finish_reason "content_filter": the server\'s content filter stopped the answer'
  //   其他任何值（"" 也是）→ `finish_reason ${JSON.stringify(finishReason)}: not one of stop, tool_calls, length`
  throw new Error("Lab 5.4 文本、用量与 finish_reason 尚未实现");
}
