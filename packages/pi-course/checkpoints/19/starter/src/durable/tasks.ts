// Checkpoint 19 · 学习脚手架：任务的状态。NEXT（每个状态的下一个）已经写好。Lab 19.2 的两处先抛出“尚未实现”的
// 临时错误。按编号完成 `// Lab 19.2` 注释描述的动作，删除临时错误，再完成 runtime-steps.ts 里 Lab 19.2 的两步，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="任务：" packages/pi-coding-agent/dist/test/19-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 19.2 ①：允许的只有：新任务（from 是 undefined）→ pending；running → running（同一次运行的继续请求）；
  //   from 的 NEXT 正是 to。其余一律抛出一行：
  //   `任务 ${task} 不能从 ${from ?? "（不存在）"} 变成 ${to}：任务只能 pending → running → completed`。
  throw new Error("Lab 19.2 任务 尚未实现");
}

/** Each task's last committed state, as recovery sees it: running becomes pending. */
export function taskStates(entries: readonly unknown[]): Map<string, TaskState> {
  // Lab 19.2 ②：按文件顺序走 entries，只看 customType 是 "tiny-pi/durable"、data.kind 是 "task" 的条目，
  //   每个任务记下它最后一条记录的 state（Map 保持任务第一次出现的顺序）。
  // Lab 19.2 ③：走完以后，还是 running 的任务改成 pending：它开始了却没有完成（进程在中途死了），恢复时从头再发。
  throw new Error("Lab 19.2 任务 尚未实现");
}
