// Checkpoint 14 · 学习脚手架：证据与套件。Lab 14.3 的算法先抛出“尚未实现”的临时错误。
// 按编号完成 `// Lab 14.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="证据与套件" packages/pi-coding-agent/dist/test/14-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { runCase } from "./runner.js";
import type { AgentUnderTest, CaseReport, EvalTask, RunOptions } from "./types.js";

export interface SuiteOptions extends RunOptions {
  /** Runs of each task; default 1. */
  repeat?: number;
  /** Called after each run, in order (a progress line). */
  onReport?: (report: CaseReport) => void;
}

/** Every task `repeat` times, serially and in order: task 1 × K, task 2 × K, … */
export async function runSuite(
  tasks: readonly EvalTask[],
  agent: AgentUnderTest,
  options: SuiteOptions = {},
): Promise<CaseReport[]> {
  // Lab 14.3 ①：repeat 默认 1，不是 ≥ 1 的整数就抛 RangeError；每个任务连续 repeat 次，一次 await 完
  // runCase() 再开始下一次（不是 Promise.all）；每份报告按顺序收集，并交给 options.onReport。
  throw new Error("Lab 14.3 证据与套件 尚未实现");
}

export interface TaskSummary {
  task: string;
  runs: number;
  passes: number;
  /** The share of runs that passed: the estimate of pass@1. */
  passAt1: number;
  /** 1 when every one of the K runs passed, else 0 (pass^K with K = runs). */
  passAll: number;
  steps: number;
  calls: number;
  tokens: number;
  ms: number;
}

export interface SuiteSummary {
  tasks: TaskSummary[];
  /** Means over tasks. */
  passAt1: number;
  passAll: number;
  tokens: number;
  ms: number;
}

/** Per task (in first-run order) and overall; counts are sums over the task's runs. */
export function summarise(reports: readonly CaseReport[]): SuiteSummary {
  // Lab 14.3 ②：按任务名分组（第一次出现的顺序）；每个任务：runs、passes（verdict 是 "pass" 的）、
  // passAt1 = passes / runs、passAll = 全部通过才是 1，steps/calls/tokens/ms 求和；总体的两个通过率是
  // 各任务的平均，tokens 与 ms 是总和。
  throw new Error("Lab 14.3 证据与套件 尚未实现");
}
