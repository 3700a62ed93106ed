export { CODE_TOOL_NAME, type CodeDetails, type CodeToolOptions, createCodeTool } from "./code-tool.js";
export { type CodeLimits, DEFAULT_CODE_LIMITS } from "./limits.js";
export type { NestedCall, NestedOutcome } from "./nested-calls.js";
export { type CodeFailure, type CodeRun, type CodeRunOptions, liveSandboxWorkers, runCode } from "./sandbox.js";
