// Lab 19.2 · 任务: a generation task goes pending → running → completed, never back, except that
// a task found running when the log is reopened never finished: it is pending again.
import type { DurableEntry, TaskState } from "./records.js";

const NEXT: Record<TaskState, TaskState | undefined> = {
  pending: "running",
  running: "completed",
  completed: undefined,
};

/** Checks that `task` may go from `from` to `to`; one line naming the rule when it may not. */
export function checkTransition(task: string, from: TaskState | undefined, to: TaskState): void {
  if (from === undefined && to === "pending") return;
  if (from === to && to === "running") return; // a continuation request of the same run
  if (from !== undefined && NEXT[from] === to) return;
  throw new Error(`任务 ${task} 不能从 ${from ?? "（不存在）"} 变成 ${to}：任务只能 pending → running → completed`);
}

/** Each task's last committed state, as recovery sees it: running becomes pending. */
export function taskStates(entries: readonly unknown[]): Map<string, TaskState> {
  const states = new Map<string, TaskState>();
  for (const entry of entries) {
    const data = (entry as DurableEntry).data;
    if ((entry as DurableEntry).customType !== "tiny-pi/durable" || data?.kind !== "task") continue;
    states.set(data.task, data.state);
  }
  for (const [task, state] of states) if (state === "running") states.set(task, "pending");
  return states;
}
