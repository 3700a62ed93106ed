export { countingModel, type ModelCounts } from "./counting-model.js";
export { frozenCopy } from "./frozen-copy.js";
export * from "./policy-model.js";
export { runCase } from "./runner.js";
export { EVAL_SYSTEM_PROMPT, runtimeAgent } from "./runtime-agent.js";
export { runSuite, type SuiteOptions, type SuiteSummary, summarise, type TaskSummary } from "./suite.js";
export { crashedSession, PRACTICE_TASKS, resumeTask } from "./tasks/index.js";
export type * from "./types.js";
export { checkActivePath, judgeRun, readVerdict } from "./verdict.js";
