export * from "./compaction/index.js";
export * from "./eval/index.js";
export * from "./extensions/index.js";
export * from "./modes/index.js";
export * from "./resources/index.js";
export * from "./runtime/index.js";
export * from "./session/index.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./tools/truncate.js";
export { createWorkspaceTools, DEFAULT_BASH_TIMEOUT_SECONDS, type WorkspaceToolsOptions } from "./workspace-tools.js";
