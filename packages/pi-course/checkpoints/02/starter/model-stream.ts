// Checkpoint 02 · 学习脚手架：PushModelStream 的字段与公共表面已经声明；Lab 2.1 与 Lab 2.2 的
// 方法体先抛出“尚未实现”。每完成一段 Lab，删除它的临时错误，只运行这一段的测试：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="排队" packages/pi-core/dist/test/02-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and fields unused until written.
import type { AssistantMessage } from "./messages.js";
import type { ModelEvent, ModelStream } from "./model.js";

type Waiter = {
  resolve: (step: IteratorResult<ModelEvent>) => void;
  reject: (error: unknown) => void;
};

/**
 * A ModelStream fed by its producer: `push` events, then `end` with the final
 * assistant (or `fail`). Events are buffered, so a consumer may be faster or
 * slower than the producer; it sees every event once, in order.
 */
export class PushModelStream implements ModelStream {
  private readonly buffered: ModelEvent[] = [];
  /** Index of the next unread event in `buffered`: `shift()` is O(n) on large arrays. */
  private readIndex = 0;
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private failure: { error: unknown } | undefined;
  private readonly final: Promise<AssistantMessage>;
  private settleFinal!: { resolve: (message: AssistantMessage) => void; reject: (error: unknown) => void };

  constructor() {
    this.final = new Promise<AssistantMessage>((resolve, reject) => {
      this.settleFinal = { resolve, reject };
    });
    // A producer may fail a stream whose result() nobody asks for; that is not an unhandled rejection.
    this.final.catch(() => {});
  }

  push(event: ModelEvent): void {
    if (this.closed) throw new Error(`PushModelStream: cannot push "${event.type}" after the stream ended`);
    // Lab 2.2 ①：有等待中的 next()（this.waiters 里最早的一个）时，把事件直接交给它：
    //   waiter.resolve({ value: event, done: false })；没有等待者时才排进队列。
    // Lab 2.1 ①：没有人等待时，事件排进 this.buffered，等以后的 next() 来取。
    throw new Error("Lab 2.1 让先到的事件排队 尚未实现");
  }

  end(message: AssistantMessage): void {
    if (this.closed) throw new Error("PushModelStream: the stream already ended");
    // Lab 2.1 ②：记下流已经结束（this.closed = true），再用 this.settleFinal.resolve(message) 让 result() 给出它。
    // Lab 2.2 ②：正在等待的每个 next() 都以 { value: undefined, done: true } 结束（取出全部 waiters）。
    throw new Error("Lab 2.1 让先到的事件排队 尚未实现");
  }

  fail(error: unknown): void {
    if (this.closed) throw new Error("PushModelStream: the stream already ended");
    // Lab 2.2 ③：流结束了，但以失败结束：this.closed = true，记下 this.failure = { error }；result() 与正在等待的
    // 每个 next() 都以同一个 error reject。已经排队的事件不动：next() 先把它们交付完。
    throw new Error("Lab 2.2 唤醒等待中的迭代器 尚未实现");
  }

  result(): Promise<AssistantMessage> {
    return this.final;
  }

  [Symbol.asyncIterator](): AsyncIterator<ModelEvent> {
    return {
      next: () => this.next(),
      return: async () => ({ value: undefined, done: true }),
    };
  }

  private next(): Promise<IteratorResult<ModelEvent>> {
    // Lab 2.1 ③：队列里还有没读的事件（this.readIndex < this.buffered.length）时，交付它，readIndex 加一
    //   （只移动下标，不用 shift()：这是性能，verify 不检查，见指南“排队：消费者还没来，事件先等着”）；
    //   队列读完、流已经 end 时给出 { value: undefined, done: true }。
    //   这两个分支写在下面 Lab 2.2 的临时错误之前，再删除这一行：
    if (this.closed || this.readIndex < this.buffered.length) throw new Error("Lab 2.1 让先到的事件排队 尚未实现");
    // Lab 2.2 ④：队列读完、流以 fail 结束时，返回以 this.failure.error reject 的 Promise：写在 Lab 2.1 交付排队事件的
    //   分支之后、给出 done 的分支之前（不写在 next() 开头：排队的事件先交付完）；还没结束时，返回一个新 Promise，
    //   把它的 resolve 与 reject 作为 waiter 放进 this.waiters，等 push 唤醒。
    throw new Error("Lab 2.2 唤醒等待中的迭代器 尚未实现");
  }
}
