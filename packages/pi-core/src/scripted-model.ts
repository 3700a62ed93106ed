import { type AssistantMessage, assistantMessage, toolCallsOf } from "./messages.js";
import type { Model, ModelRequest, ModelStream, ModelStreamOptions } from "./model.js";
import { PushModelStream } from "./model-stream.js";

/**
 * Plays scripted assistant turns in order, one per stream() call, and records a
 * deep snapshot of every request (and its options) it received. A request with
 * nothing to play ends in the protocol's `error` terminal, never a throw: past
 * the script it is an `error` naming the request, with a signal already aborted
 * it is `aborted` and the turn stays for the next request.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  /** The options of each stream() call, in order; signals are kept as given. */
  readonly requestOptions: (ModelStreamOptions | undefined)[] = [];
  private readonly turns: AssistantMessage[];
  /** Turns played so far: a pre-aborted request plays none. */
  private played = 0;

  constructor(turns: AssistantMessage[]) {
    this.turns = structuredClone(turns);
  }

  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
    this.requests.push(structuredClone(request));
    this.requestOptions.push(options);
    if (options?.signal?.aborted) {
      return playTurn(assistantMessage([], "aborted"));
    }
    const turn = this.turns[this.played];
    if (turn === undefined) {
      return playTurn({
        ...assistantMessage([], "error"),
        errorMessage: `ScriptedModel: request ${this.requests.length} has no scripted turn (the script has ${this.turns.length}); add a turn or expect fewer requests`,
      });
    }
    this.played += 1;
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
