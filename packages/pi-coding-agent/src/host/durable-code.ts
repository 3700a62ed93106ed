// The chapter 19 code tiny-pi's durable sessions run on: the course's, or a learner's from a
// practice directory (--from practice/19, learner-code.ts). session-store.ts writes a durable
// session's file through its DurableSessionStore (the learner's commit log), durable-session.ts
// recovers a crashed one with its recoveryPlan; the Runtime's steps (runtime-steps.ts) come with
// chapter 13's openRuntime from the same tree.
import { DurableMemoryStore, DurableSessionStore, isReplaySafe, recordsOf, recoveryPlan } from "../durable/index.js";
import { continueTask } from "../runtime/open.js";

export interface DurableCode {
  DurableSessionStore: Pick<typeof DurableSessionStore, "create" | "open">;
  DurableMemoryStore: typeof DurableMemoryStore;
  recoveryPlan: typeof recoveryPlan;
  isReplaySafe: typeof isReplaySafe;
  recordsOf: typeof recordsOf;
  /** Goes on with a recovered task: of the same tree as the openRuntime that opened the Runtime. */
  continueTask: typeof continueTask;
}

export const courseDurableCode: DurableCode = {
  DurableSessionStore,
  DurableMemoryStore,
  recoveryPlan,
  isReplaySafe,
  recordsOf,
  continueTask,
};
