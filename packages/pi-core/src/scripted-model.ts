import { type AssistantMessage, toolCallsOf } from "./messages.js";
import type { Model, ModelRequest, ModelStream, ModelStreamOptions } from "./model.js";
import { PushModelStream } from "./model-stream.js";

/**
 * Plays scripted assistant turns in order, one per stream() call, and records a
 * deep snapshot of every request (and its options) it received.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  /** The options of each stream() call, in order; signals are kept as given. */
  readonly requestOptions: (ModelStreamOptions | undefined)[] = [];
  private readonly turns: AssistantMessage[];

  constructor(turns: AssistantMessage[]) {
    this.turns = structuredClone(turns);
  }

  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
    this.requests.push(structuredClone(request));
    this.requestOptions.push(options);
    const requestNumber = this.requests.length;
    const turn = this.turns[requestNumber - 1];
    if (turn === undefined) {
      throw new Error(
        `ScriptedModel: request ${requestNumber} has no scripted turn (the script has ${this.turns.length}); add a turn or expect fewer requests`,
      );
    }
    return playTurn(structuredClone(turn));
  }
}

function playTurn(turn: AssistantMessage): ModelStream {
  const stream = new PushModelStream();
  stream.push({ type: "start" });
  for (const block of turn.content) {
    if (block.type === "text") stream.push({ type: "text_delta", delta: block.text });
  }
  for (const call of toolCallsOf(turn)) {
    stream.push({ type: "toolcall_delta", delta: JSON.stringify(call.arguments) });
    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });
  }
  const reason = turn.stopReason;
  if (reason === "error" || reason === "aborted") {
    stream.push(
      turn.errorMessage === undefined
        ? { type: "error", reason }
        : { type: "error", reason, message: turn.errorMessage },
    );
  } else {
    stream.push({ type: "done", reason });
  }
  stream.end(turn);
  return stream;
}
