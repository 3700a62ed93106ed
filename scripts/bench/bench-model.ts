import {
  type AssistantMessage,
  type Model,
  type ModelStream,
  PushModelStream,
  type ToolCall,
  type ToolResultMessage,
  text,
} from "@pi/core";

export const BENCH_TOOL = "noop";

/**
 * Answers each of `steps` requests with one short text and `callsPerStep` calls of the no-op
 * tool (`toolUse`), then one plain `stop`. It never reads or copies the request, so its own
 * cost per step is constant; it records when each request arrived (`requestTimes[i]` is
 * request i + 1), which gives per-step times without touching the code under test.
 */
export class BenchModel implements Model {
  readonly requestTimes: Float64Array;
  private requests = 0;

  constructor(
    readonly steps: number,
    readonly callsPerStep: number,
  ) {
    this.requestTimes = new Float64Array(steps + 1);
  }

  get requestCount(): number {
    return this.requests;
  }

  stream(): ModelStream {
    const step = this.requests;
    if (step > this.steps) throw new Error(`BenchModel: request ${step + 1} is past the final stop`);
    this.requestTimes[step] = performance.now();
    this.requests += 1;

    const stream = new PushModelStream();
    stream.push({ type: "start" });
    if (step === this.steps) {
      stream.push({ type: "text_delta", delta: "done" });
      stream.push({ type: "done", reason: "stop" });
      stream.end({ role: "assistant", content: [text("done")], stopReason: "stop", timestamp: 0 });
      return stream;
    }
    const content: AssistantMessage["content"] = [text("working")];
    stream.push({ type: "text_delta", delta: "working" });
    for (let k = 0; k < this.callsPerStep; k += 1) {
      const call: ToolCall = { type: "toolCall", id: `call-${step}-${k}`, name: BENCH_TOOL, arguments: { k } };
      content.push(call);
      stream.push({ type: "toolcall_delta", delta: `{"k":${k}}` });
      stream.push({ type: "toolcall_end", toolCall: call });
    }
    stream.push({ type: "done", reason: "toolUse" });
    stream.end({ role: "assistant", content, stopReason: "toolUse", timestamp: 0 });
    return stream;
  }
}

/** The `callsPerStep` results the bare baseline appends after every toolUse answer (it never reads their ids). */
export function readyMadeResults(callsPerStep: number): ToolResultMessage[] {
  return Array.from({ length: callsPerStep }, (_, k) => ({
    role: "toolResult",
    toolCallId: `call-${k}`,
    toolName: BENCH_TOOL,
    content: [text("ok")],
    isError: false,
    timestamp: 0,
  }));
}
