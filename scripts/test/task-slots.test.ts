// The slots that bound how many practice trees the course suite builds and tests at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { taskSlots } from "../lib/run/task-slots.js";

/** A task that runs until released, recording when it started. */
function heldTask(started: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
  };
}

test("任务槽：同时运行的任务不超过槽数，其余按给出的顺序等空出的槽", async () => {
  const inSlot = taskSlots(2);
  const started: string[] = [];
  const tasks = ["a", "b", "c", "d"].map((name) => heldTask(started, name));
  const results = tasks.map((task) => inSlot(task.run));
  await new Promise(setImmediate);
  assert.deepEqual(started, ["a", "b"], "两个槽时只有前两个任务开始");
  tasks[1]?.release();
  await results[1];
  await new Promise(setImmediate);
  assert.deepEqual(started, ["a", "b", "c"], "一个任务结束，它的槽交给排在最前面的等待者");
  const late = heldTask(started, "e");
  results.push(inSlot(late.run));
  await new Promise(setImmediate);
  assert.deepEqual(started, ["a", "b", "c"], "交出去的槽不算空：后来的任务排在等待者之后，不多占一个槽");
  for (const task of [...tasks, late]) task.release();
  assert.deepEqual(await Promise.all(results), ["a", "b", "c", "d", "e"], "每个任务的结果都交回给它的调用者");
});

test("任务槽：失败的任务也让出它的槽，失败原样交回", async () => {
  const inSlot = taskSlots(1);
  const failed = inSlot(async () => {
    throw new Error("boom");
  });
  const next = inSlot(async () => "next");
  await assert.rejects(failed, /boom/, "失败原样交回给调用者");
  assert.equal(await next, "next", "失败的任务让出槽，下一个照样运行");
});
