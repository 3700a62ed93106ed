import assert from "node:assert/strict";
import { test } from "node:test";
import { type AssistantMessage, type ModelEvent, PushModelStream } from "../src/index.js";

const final: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "项目名是 tiny-pi。" }],
  stopReason: "stop",
  timestamp: 4,
};
const events: ModelEvent[] = [
  { type: "start" },
  { type: "text_delta", delta: "项目名是 tiny-pi。" },
  { type: "done", reason: "stop" },
];

/** What a promise has come to once every queued callback ran: its step, its error, or "pending". */
async function outcome<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown } | "pending"> {
  let seen: { value: T } | { error: unknown } | "pending" = "pending";
  promise.then(
    (value) => {
      seen = { value };
    },
    (error: unknown) => {
      seen = { error };
    },
  );
  await settle();
  return seen;
}

/**
 * At most `limit` events of the stream's iteration, each step read as far as it goes once every
 * queued callback ran: an iteration that repeats an event forever, or waits, still comes back.
 */
async function readAtMost(stream: PushModelStream, limit: number): Promise<{ events: ModelEvent[]; end: string }> {
  const iterator = stream[Symbol.asyncIterator]();
  const read: ModelEvent[] = [];
  while (read.length < limit) {
    const step = await outcome(iterator.next());
    if (step === "pending") return { events: read, end: "pending" };
    if ("error" in step) throw step.error;
    if (step.value.done === true) return { events: read, end: "done" };
    read.push(step.value.value);
  }
  return { events: read, end: "more" };
}

/** The events delivered after the last pushed one, as the learner would describe them. */
function extraSeen(extra: ModelEvent[]): string {
  if (extra.length === 0) return "0 个事件";
  const first = extra[0];
  if (first === undefined)
    return `${extra.length} 个 undefined（next() 读到了队列末尾之外：交付的条件是 readIndex < buffered.length）`;
  const repeated = events.some((event) => JSON.stringify(event) === JSON.stringify(first));
  return `${extra.length} 个事件，第一个是 ${JSON.stringify(first)}${repeated ? "（已经交付过的事件又交付一次：readIndex 没有加一）" : ""}`;
}

/** Lets every callback already queued run, so a consumer that can go on has gone on. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

test("排队：迭代开始之前 push 的事件在队列里等待，按顺序各交付一次；end 结束迭代，result() 给出同一条 assistant", async () => {
  const bounded = new PushModelStream();
  for (const event of events) bounded.push(event);
  bounded.end(final);
  const read = await readAtMost(bounded, events.length + 1);
  assert.notEqual(
    read.end,
    "pending",
    "end(message) 记下 closed（this.closed = true）：队列读完、流已经 end 时 next() 给出 done，而不是一直等待",
  );
  const extra = read.events.slice(events.length);
  assert.deepEqual(
    extra,
    [],
    `next() 从 readIndex 处读一个，下标加一：end 之前 push 了 ${events.length} 个事件，读完就是 done，不会多出事件；最后一个 push 的事件之后又交付了 ${extraSeen(extra)}`,
  );
  assert.ok(
    read.events.length >= events.length,
    `先到的事件一个不少、一个不多，顺序不变：end 之前 push 了 ${events.length} 个事件，next() 只交付了 ${read.events.length} 个就给出 done。队列里还有没读的事件（readIndex < buffered.length）时先交付，读完才给出 done；丢掉读过的事件时，readIndex 要一起减掉丢掉的个数，否则剩下的事件再也读不到`,
  );

  const stream = new PushModelStream();
  for (const event of events) stream.push(event);
  stream.end(final);
  const seen: ModelEvent[] = [];
  for await (const event of stream) seen.push(event);
  assert.deepEqual(seen, events, "先到的事件一个不少、一个不多，顺序不变");
  assert.ok(
    seen.every((event, index) => event === events[index]),
    "next() 交付的就是 push 进来的那个事件（同一个对象，不是副本）：流只传递事件，不复制",
  );
  assert.notEqual(
    await outcome(stream.result()),
    "pending",
    "end(message) 用 this.settleFinal.resolve(message) 兑现 result()：end 之后 result() 不能一直等着",
  );
  assert.ok((await stream.result()) === final, "result() 给出 end 收到的那一条 assistant（同一个对象，不是副本）");

  const again: ModelEvent[] = [];
  for await (const event of stream) again.push(event);
  assert.deepEqual(again, [], "每个事件只交付一次：读完之后再迭代什么也得不到");

  const long = new PushModelStream();
  const many: ModelEvent[] = Array.from({ length: 3000 }, (_, index) => ({ type: "text_delta", delta: `${index}` }));
  for (const event of many) long.push(event);
  long.end(final);
  const seenLong: ModelEvent[] = [];
  for await (const event of long) seenLong.push(event);
  assert.equal(
    seenLong.length,
    many.length,
    "长回合的 3000 个事件一个不少：丢掉读过的事件时，readIndex 要一起减掉丢掉的个数",
  );
  assert.deepEqual(seenLong, many, "长回合的事件按 push 的顺序各交付一次");

  const later = new PushModelStream();
  const iterator = later[Symbol.asyncIterator]();
  later.push({ type: "start" });
  assert.deepEqual(await iterator.next(), { value: { type: "start" }, done: false }, "队列里的第一个事件先交付");
  later.push({ type: "text_delta", delta: "之后" });
  assert.deepEqual(
    await outcome(iterator.next()),
    { value: { value: { type: "text_delta", delta: "之后" }, done: false } },
    "队列读完以后、没有人等待时 push 的事件仍排进队列并交付给下一次 next()：一个也不丢（丢掉读过的事件时，readIndex 要一起减掉丢掉的个数）",
  );
});

test("排队：结束之后再 push 或 end 是清楚的错误，已经交付的结果不变", async () => {
  const stream = new PushModelStream();
  stream.push({ type: "start" });
  stream.end(final);
  assert.throws(
    () => stream.push({ type: "text_delta", delta: "迟到" }),
    /cannot push "text_delta" after the stream ended/,
    "终态之后不能再有事件",
  );
  assert.throws(() => stream.end(final), /already ended/, "一条流只有一个终态");
  assert.ok((await stream.result()) === final, "result() 仍是第一次 end 的 assistant（同一个对象）");
});

test("唤醒：已经在等待的迭代器被下一次 push 唤醒，同时等待的按先后唤醒，end 让它结束", async () => {
  const stream = new PushModelStream();
  const iterator = stream[Symbol.asyncIterator]();
  let woken: IteratorResult<ModelEvent> | undefined;
  const waiting = iterator.next().then((step) => {
    woken = step;
  });
  await settle();
  assert.equal(woken, undefined, "还没有事件时 next() 等待，而不是给出 done 或 undefined");
  stream.push({ type: "start" });
  await waiting;
  assert.deepEqual(woken, { value: { type: "start" }, done: false }, "push 把事件直接交给正在等待的 next()");

  const ending = iterator.next();
  let early: IteratorResult<ModelEvent> | undefined;
  void ending.then((step) => {
    early = step;
  });
  await settle();
  assert.equal(early, undefined, "直接交给等待者的事件不进队列：下一个 next() 等待新事件，不会再得到 start");
  stream.end(final);
  assert.deepEqual(
    await outcome(ending),
    { value: { value: undefined, done: true } },
    "end 唤醒所有等待者：正在等待的 next() 以 done 结束（取出全部 waiters，各自 resolve），不会一直等着",
  );
  assert.ok((await stream.result()) === final, "result() 给出 end 收到的那一条最终 assistant（同一个对象）");

  const open = new PushModelStream();
  const openReader = open[Symbol.asyncIterator]();
  open.push({ type: "start" });
  assert.deepEqual(await openReader.next(), { value: { type: "start" }, done: false }, "排队的 start 先交付");
  const afterRead = openReader.next();
  assert.equal(
    await outcome(afterRead),
    "pending",
    "队列读完、流还没结束时 next() 等待，不给出 done（回合还没完）：已经读过事件、队列又空了也一样",
  );
  open.push({ type: "text_delta", delta: "之后" });
  assert.deepEqual(
    await outcome(afterRead),
    { value: { value: { type: "text_delta", delta: "之后" }, done: false } },
    "读过事件以后等待的 next() 被下一次 push 唤醒",
  );

  const both = new PushModelStream();
  const reader = both[Symbol.asyncIterator]();
  const first = reader.next();
  const second = reader.next();
  both.push(events[0] as ModelEvent);
  both.push(events[1] as ModelEvent);
  assert.notEqual(
    await outcome(second),
    "pending",
    "push 把等待者从队列里取出（this.waiters.shift()）再交出事件：两个 next() 同时等待时，第一次 push 交给最早的那个并把它移出 waiters，第二次 push 交给第二个，它不会一直等着",
  );
  assert.deepEqual(
    [(await first).value, (await second).value],
    [events[0], events[1]],
    "两个 next() 同时等待：push 先交给最早的那个，事件仍按 push 的顺序到达",
  );
  const third = reader.next();
  const fourth = reader.next();
  both.end(final);
  const done = { value: { value: undefined, done: true } };
  assert.deepEqual(
    [await outcome(third), await outcome(fourth)],
    [done, done],
    "end 让所有等待者以 done 结束，不只是最早的那个",
  );
});

test("唤醒：fail 先交付队列里的事件再让迭代 reject，等待中的迭代器和 result() 也以同一个错误 reject", async () => {
  const failure = new Error("connection reset");
  const early = new PushModelStream();
  early.push({ type: "start" });
  early.fail(failure);
  const drained: ModelEvent[] = [];
  const draining = (async () => {
    for await (const event of early) {
      drained.push(event);
      // An iteration that repeats its first event never ends: stop reading instead of hanging.
      if (drained.length > 1) break;
    }
  })();
  await assert.rejects(draining, "队列读完以后，迭代以 fail 的那个错误 reject，而不是正常结束");
  const drainedEnd = await outcome(draining);
  const rejectedWith = typeof drainedEnd === "object" && "error" in drainedEnd ? drainedEnd.error : undefined;
  assert.ok(
    rejectedWith === failure,
    `队列读完以后，迭代以 fail 收到的同一个 error reject：next() 返回 Promise.reject(this.failure.error)，原样交出那个值，不包进 new Error，也不换成别的错误（实际 reject 的是 ${String(rejectedWith)}）`,
  );
  assert.deepEqual(drained, [{ type: "start" }], "fail 之前排队的事件先交付");

  const stream = new PushModelStream();
  const seen: ModelEvent[] = [];
  const consuming = (async () => {
    for await (const event of stream) seen.push(event);
  })();
  await settle();
  assert.deepEqual(seen, [], "还没有事件，消费者在等待");
  const other = stream[Symbol.asyncIterator]().next();
  stream.fail(failure);
  const otherEnd = outcome(other);
  assert.notEqual(
    await outcome(consuming),
    "pending",
    "fail 唤醒所有等待者：正在等待的 next() 以 fail 的那个错误 reject（取出全部 waiters，各自 reject(error)），不会一直等着",
  );
  await assert.rejects(consuming, (error) => error === failure, "等待中的迭代以 fail 的那个错误 reject");
  assert.deepEqual(await otherEnd, { error: failure }, "fail 让每个等待者都以同一个错误 reject，不只是最早的那个");
  assert.deepEqual(
    await outcome(stream.result()),
    { error: failure },
    "fail(error) 用 this.settleFinal.reject(error) 让 result() 以同一个错误 reject（不会一直等着）",
  );
  assert.throws(() => stream.push({ type: "start" }), /after the stream ended/, "fail 之后流已经结束");

  const plain = new PushModelStream();
  const waiter = plain[Symbol.asyncIterator]().next();
  plain.fail("socket closed");
  assert.deepEqual(
    [await outcome(waiter), await outcome(plain.result())],
    [{ error: "socket closed" }, { error: "socket closed" }],
    "fail(error) 让 result() 与所有等待者以同一个 error reject：不是 Error 的值也原样交出，不包成 new Error",
  );
  for (const falsy of ["", 0]) {
    const quiet = new PushModelStream();
    quiet.fail(falsy);
    assert.deepEqual(
      await outcome(quiet[Symbol.asyncIterator]().next()),
      { error: falsy },
      `队列读完后，有 failure 就返回 Promise.reject(failure.error)：看 failure 在不在，不看 error 的真假；fail(${JSON.stringify(falsy)}) 之后的 next() 以同一个 ${JSON.stringify(falsy)} reject，不正常结束`,
    );
  }
});
