export { CommitLog, type CommitLogOptions } from "./commit-log.js";
export { type CommittedPart, committedPart } from "./committed-part.js";
export { DurableMemoryStore, DurableSessionStore } from "./durable-store.js";
export { PartialOutput } from "./partial-output.js";
export {
  checkDurableEntry,
  DURABLE,
  type DurableEntry,
  type DurableRecord,
  durableEntry,
  type IntentRecord,
  isDurableEntry,
  type PartialRecord,
  recordsOf,
  type TaskRecord,
  type TaskState,
  withoutDurable,
} from "./records.js";
export { INTERRUPTED_INTENT, interruptedIntent, NOT_STARTED, type RecoveryPlan, recoveryPlan } from "./recovery.js";
export { isReplaySafe, type MaybeReplaySafe } from "./replay-safety.js";
export { type DurableSteps, durableSteps } from "./runtime-steps.js";
export { checkTransition, taskStates } from "./tasks.js";
