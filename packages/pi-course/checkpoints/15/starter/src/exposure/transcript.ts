// Checkpoint 15 · 学习脚手架：记录变化。ExposureRecorder 与 exposureRecorder()（Runtime 打开时调用一次）已经
// 写好，Runtime 在每次请求之前问它要不要记一条变化（runtime.ts 的 recording 模型）。Lab 15.3 的两处先抛出
// “尚未实现”的临时错误。按 ① → ② 完成 `// Lab 15.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="记录变化" packages/pi-coding-agent/dist/test/15-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import type { ToolDefinition, ToolRegistry } from "@pi/core";
import type { SessionEntry } from "../session/entries.js";
import { ExposedRegistry } from "./registry.js";
import { declaredOn, recordsToolState, type ToolChange, toolChange } from "./tool-state.js";

/** What the Runtime keeps of the exposure: one question asked before every request. */
export interface ExposureRecorder {
  /** The change to record before a request declaring `declared` goes out on `path`, or undefined. */
  change(path: readonly SessionEntry[], declared: readonly ToolDefinition[]): ToolChange | undefined;
}

/**
 * The change a request needs: none while every tool is direct and the branch records no tool
 * state (the transcript is chapter 07's); otherwise the difference between what the branch
 * declares and what the request declares, if there is one.
 */
export function pendingChange(
  path: readonly SessionEntry[],
  declared: readonly ToolDefinition[],
  allDirect: boolean,
): ToolChange | undefined {
  // Lab 15.3 ①：allDirect 而且分支上没有任何工具状态（recordsToolState）→ undefined：transcript 与第 07 章的
  // 一样。否则是分支重放出的集合（declaredOn）到这次请求声明的集合的 toolChange()：没变就是 undefined。
  throw new Error("Lab 15.3 记录变化 尚未实现");
}

/** Activates the deferred tools `path` declares; a tool this run no longer has is left to the next change. */
export function restoreActivation(path: readonly SessionEntry[], registry: ExposedRegistry): string[] {
  // Lab 15.3 ②：分支声明过的工具（declaredOn 的名字）交给 registry.activate()，返回它激活的名字。这次运行
  // 没有的名字 activate() 会跳过：下一次请求的变化自然只有删除。声明的集合不放在任何变量里。
  throw new Error("Lab 15.3 记录变化 尚未实现");
}

/** The Runtime's recorder for `tools`, opened on the `restored` branch (its activations restored first). */
export function exposureRecorder(tools: ToolRegistry, restored: readonly SessionEntry[]): ExposureRecorder {
  // A plain registry (chapters 13 and 14) has no exposure: every tool is direct, nothing is recorded.
  if (!(tools instanceof ExposedRegistry)) return { change: () => undefined };
  restoreActivation(restored, tools);
  const allDirect = tools.allDirect();
  return { change: (path, declared) => pendingChange(path, declared, allDirect) };
}
