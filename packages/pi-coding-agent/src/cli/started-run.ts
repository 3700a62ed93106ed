// A run once composed and its start lines told: what the REPL (repl-run.ts) and the one-shot run
// (run-once.ts) both go on from.
import type { AssembledRun } from "../host/assemble-run.js";
import type { Interrupts } from "./interrupts.js";
import type { RunInvocation } from "./invocation.js";
import type { EngineChoice, LearnerRun } from "./learner-code.js";
import type { Presentation } from "./presentation.js";
import type { OutcomeContext } from "./run-outcome.js";
import type { RuntimePart } from "./runtime-line.js";
import type { SessionReport } from "./session-report.js";

export interface StartedRun {
  invocation: RunInvocation;
  assembled: AssembledRun;
  learner: LearnerRun;
  engine: EngineChoice;
  interrupts: Interrupts;
  /** Removes the Ctrl-C handler of the setup (from here a turn's Ctrl-C aborts the turn). */
  endSetup(): void;
  notes: NodeJS.WritableStream;
  /** The redacted endpoint, for the failure lines. */
  outcome: OutcomeContext;
  present: Presentation;
  saving: SessionReport;
  /** Whose each part of the Runtime is, for the start line. */
  parts: RuntimePart[];
}
