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
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ value: event, done: false });
    else this.buffered.push(event);
  }

  end(message: AssistantMessage): void {
    if (this.closed) throw new Error("PushModelStream: the stream already ended");
    this.closed = true;
    this.settleFinal.resolve(message);
    for (const waiter of this.waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  fail(error: unknown): void {
    if (this.closed) throw new Error("PushModelStream: the stream already ended");
    this.closed = true;
    this.failure = { error };
    this.settleFinal.reject(error);
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
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
    if (this.readIndex < this.buffered.length) {
      const event = this.buffered[this.readIndex] as ModelEvent;
      this.readIndex += 1;
      // Drop read events once they are the larger part, so a long stream's memory stays bounded.
      if (this.readIndex >= 1024 && this.readIndex * 2 >= this.buffered.length) {
        this.buffered.splice(0, this.readIndex);
        this.readIndex = 0;
      }
      return Promise.resolve({ value: event, done: false });
    }
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }
}
