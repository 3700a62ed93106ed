export { type ModelCounts, countingModel } from "./counting-model.js";
export { frozenCopy } from "./frozen-copy.js";
export { runCase } from "./runner.js";
export { runSuite, type SuiteOptions, type SuiteSummary, summarise, type TaskSummary } from "./suite.js";
export type * from "./types.js";
export { checkActivePath, judgeRun, readVerdict } from "./verdict.js";
