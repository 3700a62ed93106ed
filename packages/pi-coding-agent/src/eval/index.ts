export { type ModelCounts, countingModel } from "./counting-model.js";
export { frozenCopy } from "./frozen-copy.js";
export { runCase } from "./runner.js";
export { runSuite, type SuiteOptions, type SuiteSummary, summarise, type TaskSummary } from "./suite.js";
export type * from "./types.js";
export { checkActivePath, judgeRun, readVerdict } from "./verdict.js";
export * from "./policy-model.js";
export { crashedSession, PRACTICE_TASKS, resumeTask } from "./tasks/index.js";
export { EVAL_SYSTEM_PROMPT, runtimeAgent } from "./runtime-agent.js";
