// Checkpoint 14 · 学习脚手架：判决。类型在 types.ts，公共表面已经声明；Lab 14.1 的算法
// 先抛出“尚未实现”的临时错误，留给你实现。按编号完成 `// Lab 14.1` 注释描述的动作，
// 删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="判决" packages/pi-coding-agent/dist/test/14-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { type Message, toolCallsOf } from "@pi/core";
import type { Judge, Observation, Outcome, PathProblem, Verdict } from "./types.js";

/**
 * The first problem of `messages` as a transcript, or undefined when it is consistent: it starts
 * with a user message (an empty path does not: "inconsistent"); each assistant's calls have ids
 * never used before, not even in the same message ("duplicate"); results follow their own
 * assistant directly, one per call ("duplicate" for a second one, even when another assistant came
 * in between: a result already given is checked first), a result for an earlier assistant's call
 * (any assistant in between ends the batch, with calls or without) is "cross-assistant", one for
 * no call "inconsistent"; a call that never gets a result is "dangling".
 */
export function checkActivePath(messages: readonly Message[]): PathProblem | undefined {
  // Lab 14.1 ①：第一条不是 user 就是 "inconsistent"（空的路径没有第一条，也是）。然后按顺序走一遍：记下见过的
  // 每个调用（id → 工具名）、已经有结果的调用、当前这一批（最近一个 assistant 的调用：每个 assistant 都开始新的
  // 一批，没有调用的也是）以及“是否还在这一批的结果里”。toolResult：已有结果 → "duplicate"；没有这个调用 →
  // "inconsistent"；不是当前这一批的（中间隔了别的消息）→ "cross-assistant"；工具名不同 → "inconsistent"。
  // assistant 的调用 id 见过（不论那个调用有没有结果，同一个 assistant 里前面的调用也算）→ "duplicate"。
  // Lab 14.1 ②：走完以后还有调用没有结果 → "dangling"。
  throw new Error("Lab 14.1 判决 尚未实现");
}

/** The verdict when it is one: exactly `success` and `unmet`, and success exactly when nothing is unmet. */
export function readVerdict(value: unknown): Verdict | undefined {
  // Lab 14.1 ③：恰好两个键 success 与 unmet；success 是布尔值，unmet 是字符串数组；
  // success 为 true 当且仅当 unmet 为空。其他一切都不是判决（返回 undefined）。
  throw new Error("Lab 14.1 判决 尚未实现");
}

/**
 * The outcome of a frozen observation: the active path first (the judge is not asked about a
 * broken transcript), then the judge. A judge that throws or contradicts itself is an error of
 * phase "judge", and nothing of what it threw is kept.
 */
export function judgeRun(observation: Observation, judge: Judge): Outcome {
  // Lab 14.1 ④：先 checkActivePath()，有问题就是 { verdict: "fail", reason: 问题 }，不调用 judge；
  // 再调用 judge（抛错 → { verdict: "error", phase: "judge" }，不留消息），用 readVerdict() 读它的答复
  // （不是判决 → 同样的 judge 错误）；成功是 pass，失败只留 unmet 的个数。
  throw new Error("Lab 14.1 判决 尚未实现");
}
