// Checkpoint 01 · 学习脚手架：unreachable()、eventLine()、modelEventProblem() 的签名已经写好；
// Lab 1.1 与 Lab 1.2 的函数体先抛出“尚未实现”。每完成一段 Lab，删除它的临时错误，只运行这一段的测试：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="穷尽" packages/pi-core/dist/test/01-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, imports and constants unused until written.
import type { ToolCall } from "./messages.js";
import type { ModelEvent } from "./model.js";

/** Called where every member of a union has been handled: a member left out does not compile. */
export function unreachable(value: never): never {
  // Lab 1.1 ①：这一行本来就不该执行：真的执行到了，说明有值绕过了编译器（例如 JSON.parse 之后的 as）。
  // 抛出 Error，message 是 `Unhandled value: ` 加上 JSON.stringify(value)。
  throw new Error("Lab 1.1 用 never 穷尽每一种事件 尚未实现");
}

/** One line per event for a trace, the way `npm run demo` prints them. */
export function eventLine(event: ModelEvent): string {
  // Lab 1.1 ②：switch (event.type)，每个 case 里 TypeScript 已经把 event 收窄成那一种事件：
  //   start → "start"；text_delta → `text_delta ${JSON.stringify(delta)}`；toolcall_delta → `toolcall_delta ${delta}`；
  //   toolcall_end → `toolcall_end <id> <name>`；done → `done <reason>`；
  //   error → `error <reason>`，message 不是 undefined 时再加 `: <message>`（看 message !== undefined，
  //   不看 "message" in event，也不看真假：空字符串也算，message: undefined 不算）。delta 与 message 都原样写出，不 trim。
  // default 分支写 return unreachable(event)：漏掉任何一种事件时，event 不是 never，编译就失败。
  throw new Error("Lab 1.1 用 never 穷尽每一种事件 尚未实现");
}

const DONE_REASONS: readonly unknown[] = ["stop", "toolUse", "length"];
const ERROR_REASONS: readonly unknown[] = ["error", "aborted"];

/**
 * Why `value` (e.g. from JSON.parse) is not a ModelEvent, or undefined when it is one. Nothing
 * from outside the program is used as a ModelEvent before this check says so.
 */
export function modelEventProblem(value: unknown): string | undefined {
  // Lab 1.2 在边界检查 unknown：value 是 unknown，先证明它是什么，才能读它的字段。
  //   ① 不是普通对象（!isRecord(value)：null、数字、布尔、undefined、数组、字符串……）→ "expected an object"；是对象后才按 value.type 分支。
  //   ② start 不需要别的字段（多出来的字段不拒绝：每种事件只检查协议要的字段）；text_delta 与 toolcall_delta 要有字符串 delta（typeof delta === "string"：null、true、{}、数组都不是；"" 也是字符串；否则 `"<type>" needs a string delta`）。
  //   ③ toolcall_end 交给 toolCallProblem(value.toolCall)。
  //   ④ done 的 reason 在 DONE_REASONS 里，否则 '"done" needs reason "stop", "toolUse" or "length"'；
  //      error 的 reason 在 ERROR_REASONS 里，否则 '"error" needs reason "error" or "aborted"'；
  //      reason 必须是列表里的某一个字符串：["stop"] 这样的数组、"toString" 这样继承来的键名都不在列表里。
  //      error 的 message 可以没有（message === undefined 就是没有），有就要是字符串（null、true、{} 都不行），
  //      否则 '"error" message must be a string'。
  //      error 先查 reason，再查 message：两处都不对时报告 reason 那一句。
  //   ⑤ 其余 type → `unknown event type ${JSON.stringify(value.type)}`。合法时返回 undefined。
  //      type 与 reason 逐字比较（不 trim、不改大小写，done 与 error 都一样）；按 type 用 switch 分支，不用对象查表（"toString" 这样
  //      继承来的键名会被查到）。检查只读：不改动 value（不删键、不补字段、不 trim、不冻结或封住、不换成副本）。
  // 拒绝的原因就是调用者看到的那一行：逐字照上面的句子写，不加前缀、后缀或句号（指南“unknown：先证明，再使用”有完整的表）。
  throw new Error("Lab 1.2 在边界检查 unknown 尚未实现");
}

/** A type guard over modelEventProblem: true exactly when there is no problem. */
export function isModelEvent(value: unknown): value is ModelEvent {
  return modelEventProblem(value) === undefined;
}

function toolCallProblem(value: unknown): string | undefined {
  if (!isRecord(value) || value.type !== "toolCall") return '"toolcall_end" needs a toolCall object';
  const call = value as Partial<Record<keyof ToolCall, unknown>>;
  if (typeof call.id !== "string" || typeof call.name !== "string") return "toolCall needs a string id and name";
  return isRecord(call.arguments) ? undefined : "toolCall arguments must be an object";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
