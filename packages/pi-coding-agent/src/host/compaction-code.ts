// The chapter 11 code tiny-pi compacts with: the course's, or a learner's from a practice
// directory (--from, learner-code.ts). compaction-turn.ts and summarise.ts take it as a value, so
// a learner's buildContext shapes every request and its createCompactionEntry writes the entry.
import { buildContext, createCompactionEntry, parseCompactionSummary } from "../compaction/index.js";

export interface CompactionCode {
  buildContext: typeof buildContext;
  createCompactionEntry: typeof createCompactionEntry;
  parseCompactionSummary: typeof parseCompactionSummary;
}

export const courseCompactionCode: CompactionCode = { buildContext, createCompactionEntry, parseCompactionSummary };
