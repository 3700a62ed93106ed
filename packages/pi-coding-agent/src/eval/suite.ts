// Lab 14.3 · 证据与套件: a suite runs its cases one after another, in the given order, each
// prepared again; the report it gives is counts and verdicts only, and pass rates per task.
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
  // Lab 14.3 ① serial: one run at a time, never Promise.all; a repeat runs runCase() again.
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new RangeError(`repeat must be a whole number ≥ 1, got ${repeat}`);
  const reports: CaseReport[] = [];
  for (const task of tasks) {
    for (let run = 0; run < repeat; run += 1) {
      const report = await runCase(task, agent, options);
      reports.push(report);
      options.onReport?.(report);
    }
  }
  return reports;
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
  // Lab 14.3 ② group by task in order, then the two rates and the sums.
  const byTask = new Map<string, CaseReport[]>();
  for (const report of reports) byTask.set(report.task, [...(byTask.get(report.task) ?? []), report]);
  const tasks = [...byTask].map(([task, runs]): TaskSummary => {
    const passes = runs.filter((report) => report.outcome.verdict === "pass").length;
    const sum = (key: "steps" | "calls" | "tokens" | "ms") => runs.reduce((total, r) => total + r.evidence[key], 0);
    return {
      task,
      runs: runs.length,
      passes,
      passAt1: passes / runs.length,
      passAll: passes === runs.length ? 1 : 0,
      steps: sum("steps"),
      calls: sum("calls"),
      tokens: sum("tokens"),
      ms: sum("ms"),
    };
  });
  const mean = (key: "passAt1" | "passAll") =>
    tasks.length === 0 ? 0 : tasks.reduce((total, task) => total + task[key], 0) / tasks.length;
  return {
    tasks,
    passAt1: mean("passAt1"),
    passAll: mean("passAll"),
    tokens: tasks.reduce((total, task) => total + task.tokens, 0),
    ms: tasks.reduce((total, task) => total + task.ms, 0),
  };
}
