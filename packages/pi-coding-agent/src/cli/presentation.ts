// How a run's events reach the person: the human view (text mode) or nothing but the mode's own
// output (-p, JSON), always with the key redacted, a retried model error told in one line, and the
// last turn's ending kept for the exit code of a run whose session failed to save.
import type { AgentRunResult, LoopEvent } from "@pi/course";
import { type Redact, redactDeep } from "../host/redacting.js";
import type { RuntimeEvent } from "../runtime/index.js";
import { humanView } from "./human-view.js";
import type { OutputMode } from "./output-mode.js";
import { modelErrorLine, type OutcomeContext } from "./run-outcome.js";
import { styleFor } from "./style.js";

export interface Presentation {
  /** Subscribed to the Runtime for the whole run. */
  onEvent(event: RuntimeEvent): void;
  /** stdout for the chapter's print and JSON modes, the key redacted. */
  output: { write(text: string): unknown };
  /** How the last turn ended; undefined before any did. */
  lastReason(): AgentRunResult["reason"] | undefined;
}

export function presentation(mode: OutputMode, redact: Redact, outcome: OutcomeContext): Presentation {
  const stdout = process.stdout;
  const view = mode === "text" ? humanView(stdout, styleFor(stdout, process.env)) : undefined;
  let reason: AgentRunResult["reason"] | undefined;
  return {
    onEvent(event) {
      if (event.type === "retry") {
        const seconds = Math.round(event.delayMs / 100) / 10;
        process.stderr.write(
          `（${modelErrorLine(redact(event.errorMessage), outcome)}——${seconds} 秒后第 ${event.attempt} 次重试）\n`,
        );
        return;
      }
      if (event.type === "turn_end") reason = event.reason;
      view?.(redactDeep(event, redact) as LoopEvent);
    },
    output: { write: (text: string) => stdout.write(redact(text)) },
    lastReason: () => reason,
  };
}
