import assert from "node:assert/strict";
import { test } from "node:test";
import { withFileMutationQueue } from "../src/tools/file-mutation-queue.js";

/** A promise the test settles by hand, to fix which asynchronous step finishes first. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

test("同一真实路径的修改按调用顺序执行，即使先来的调用解析路径更慢", async () => {
  const slow = gate<string>();
  const order: string[] = [];
  const first = withFileMutationQueue(
    () => slow.promise,
    async () => {
      order.push("first");
    },
  );
  const second = withFileMutationQueue(
    async () => "/ws/log.txt",
    async () => {
      order.push("second");
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  slow.open("/ws/log.txt");
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first", "second"], "后来的调用不能因为路径解析得快就插到前面");
});

test("不同真实路径的修改互不等待；一次解析失败不挡住后面的调用", async () => {
  const held = gate<void>();
  const order: string[] = [];
  const blocked = withFileMutationQueue(
    async () => "/ws/a.txt",
    async () => {
      await held.promise;
      order.push("a");
    },
  );
  const refused = withFileMutationQueue(
    async () => {
      throw new Error('Path "../x" is outside the workspace');
    },
    async () => {
      order.push("never");
    },
  );
  await assert.rejects(refused, /outside the workspace/, "解析失败的调用自己 reject");
  await withFileMutationQueue(
    async () => "/ws/b.txt",
    async () => {
      order.push("b");
    },
  );
  assert.deepEqual(order, ["b"], "b 不等 a 的修改");
  held.open();
  await blocked;
  assert.deepEqual(order, ["b", "a"]);
});
