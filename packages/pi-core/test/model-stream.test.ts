import assert from "node:assert/strict";
import { test } from "node:test";
import { assistantMessage, type ModelEvent, PushModelStream, text } from "../src/index.js";

const final = assistantMessage([text("done")], "stop", 2);
const events: ModelEvent[] = [{ type: "start" }, { type: "text_delta", delta: "do" }, { type: "done", reason: "stop" }];

async function collect(stream: PushModelStream): Promise<ModelEvent[]> {
  const seen: ModelEvent[] = [];
  for await (const event of stream) seen.push(event);
  return seen;
}

test("PushModelStream：消费者比生产者慢，缓冲的事件按顺序各交付一次，result() 给出最终 assistant", async () => {
  const stream = new PushModelStream();
  for (const event of events) stream.push(event);
  stream.end(final);
  assert.deepEqual(await collect(stream), events);
  assert.equal(await stream.result(), final);
});

test("PushModelStream：消费者比生产者快，等待中的 next() 随 push 依次完成", async () => {
  const stream = new PushModelStream();
  const seen: ModelEvent[] = [];
  const consumer = (async () => {
    for await (const event of stream) seen.push(event);
  })();
  for (const [index, event] of events.entries()) {
    // Let the consumer drain everything and wait again, so each push meets a waiting next().
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(seen.length, index, "the consumer saw an event before it was pushed");
    stream.push(event);
  }
  stream.end(final);
  await consumer;
  assert.deepEqual(seen, events);
  assert.equal(await stream.result(), final);
});

test("PushModelStream：fail 先交付已缓冲事件再让迭代 reject，result() 以同一错误 reject", async () => {
  const stream = new PushModelStream();
  const failure = new Error("connection reset");
  stream.push({ type: "start" });
  stream.fail(failure);
  const seen: ModelEvent[] = [];
  await assert.rejects(async () => {
    for await (const event of stream) seen.push(event);
  }, failure);
  assert.deepEqual(seen, [{ type: "start" }]);
  await assert.rejects(stream.result(), failure);
});

test("PushModelStream：fail 让正在等待的消费者 reject", async () => {
  const stream = new PushModelStream();
  const seen = collect(stream);
  await Promise.resolve();
  stream.fail(new Error("gone"));
  await assert.rejects(seen, /gone/);
});

test("PushModelStream：结束之后 push、end 或 fail 都是清楚的错误", () => {
  const stream = new PushModelStream();
  stream.end(final);
  assert.throws(() => stream.push({ type: "start" }), /cannot push "start" after the stream ended/);
  assert.throws(() => stream.end(final), /already ended/);
  assert.throws(() => stream.fail(new Error("x")), /already ended/);
});

test("PushModelStream：没有人读取 result() 的失败不是未处理的 rejection", async () => {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", listener);
  try {
    new PushModelStream().fail(new Error("nobody listens"));
    await new Promise<void>((resolve) => setImmediate(resolve));
  } finally {
    process.off("unhandledRejection", listener);
  }
  assert.deepEqual(unhandled, []);
});

test("PushModelStream：读取与 push 交错的长流（超过压缩阈值）每个事件按顺序只交付一次", async () => {
  const stream = new PushModelStream();
  const pushed: ModelEvent[] = [];
  const seen: ModelEvent[] = [];
  const iterator = stream[Symbol.asyncIterator]();
  // Push in bursts larger than they are read, so read events pile up past the point where the
  // stream drops them in bulk, then drain: order and count must survive every compaction.
  for (let burst = 0; burst < 6; burst += 1) {
    for (let i = 0; i < 1500; i += 1) {
      const event: ModelEvent = { type: "text_delta", delta: `${burst}:${i}` };
      pushed.push(event);
      stream.push(event);
    }
    for (let i = 0; i < 1000; i += 1) {
      const step = await iterator.next();
      assert.equal(step.done, false);
      seen.push(step.value as ModelEvent);
    }
  }
  stream.end(final);
  for (let step = await iterator.next(); !step.done; step = await iterator.next()) seen.push(step.value);
  assert.equal(seen.length, pushed.length);
  assert.deepEqual(seen, pushed);
});
