export { type ContextBudget, defaultSafetyMargin, historyBudget, keepNewest } from "./budget.js";
export { type BuiltContext, buildContext, messagesFrom, type PathMessages, sinceNewestCompaction } from "./context.js";
export { type CompactionFields, createCompactionEntry } from "./create-entry.js";
export { compactionFiles } from "./files.js";
export { groupInteractions, type Interaction } from "./interactions.js";
export { renderSummary, SUMMARY_PREFIX, SUMMARY_SUFFIX, summaryMessage } from "./render.js";
export {
  type CompactionFiles,
  type CompactionSummary,
  parseCompactionEntry,
  parseCompactionFiles,
  parseCompactionSummary,
} from "./summary.js";
export { CHARS_PER_TOKEN, estimateTextTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "./tokens.js";
