// Fallback: a request goes to the first model; when that one answers 5xx or cannot be reached
// before it streamed anything, the same request goes to the next. Nothing of a failed attempt
// reaches the caller, so the transcript holds only the reply that served the request.
import type { ModelEvent, ModelStream } from "@pi/core";
import { PushModelStream } from "@pi/core";
import { markAnswered } from "./answered.js";
import type { PhysicalModel } from "./catalogue.js";

export interface FallbackNote {
  from: PhysicalModel;
  to: PhysicalModel;
  /** The failed attempt's one-line error. */
  why: string;
}

/** A server-side status (5xx) or no answer at all (refused, reset, timed out): worth asking the next model. */
export function worthFallingBack(errorMessage: string | undefined): boolean {
  if (errorMessage === undefined) return false;
  return /^\s*5\d\d\b/.test(errorMessage) || /^(connection error|connection timed out)\b/i.test(errorMessage);
}

export interface Attempt {
  model: PhysicalModel;
  open: () => ModelStream;
}

/** The first attempt's stream, or the next attempt's when one fails before streaming anything. */
export function fallbackStream(
  attempts: readonly Attempt[],
  signal: AbortSignal | undefined,
  onFallback?: (note: FallbackNote) => void,
): ModelStream {
  const out = new PushModelStream();
  const run = async () => {
    for (let index = 0; index < attempts.length; index += 1) {
      const attempt = attempts[index] as Attempt;
      const next = attempts[index + 1];
      const stream = attempt.open();
      // Held back until the attempt streams something: a failure before that is not shown.
      let held: ModelEvent[] | undefined = next === undefined ? undefined : [];
      let failedEarly: ModelEvent | undefined;
      for await (const event of stream) {
        if (held !== undefined && event.type === "start") {
          held.push(event);
          continue;
        }
        if (held !== undefined && event.type === "error") {
          failedEarly = event;
          break;
        }
        if (held !== undefined) for (const early of held.splice(0)) out.push(early);
        held = undefined;
        out.push(event);
      }
      const message = await stream.result();
      if (failedEarly !== undefined && next !== undefined && signal?.aborted !== true) {
        if (worthFallingBack(message.errorMessage)) {
          onFallback?.({ from: attempt.model, to: next.model, why: message.errorMessage ?? "" });
          continue;
        }
      }
      for (const early of held ?? []) out.push(early);
      if (failedEarly !== undefined) out.push(failedEarly);
      out.end(markAnswered(message, attempt.model));
      return;
    }
  };
  run().catch((error: unknown) => out.fail(error));
  return out;
}
