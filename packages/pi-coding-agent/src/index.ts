export * from "./codemode/index.js";
export * from "./compaction/index.js";
export * from "./durable/index.js";
export * from "./eval/index.js";
export * from "./exposure/index.js";
export * from "./extensions/index.js";
// Chapter 17's MCP client (its bare callTool is McpClient.callTool here: eval/ has a callTool of its own).
export {
  classifyMessage,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_PAGES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  initialize,
  JsonRpcConnection,
  LATEST_PROTOCOL_VERSION,
  listTools,
  MAX_TOOL_NAME_LENGTH,
  type McpCallResult,
  McpClient,
  McpConnectionError,
  McpRemoteError,
  McpToolFailure,
  type McpToolInfo,
  mcpToolName,
  mcpTools,
  NdjsonReader,
  StdioTransport,
  StreamableHttpTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from "./mcp/index.js";
export * from "./models/index.js";
export * from "./modes/index.js";
export * from "./resources/index.js";
export * from "./runtime/index.js";
// Chapter 19: a recovered task goes on (not on chapter 13's control surface, so not in runtime/index.ts).
export { continueTask } from "./runtime/open.js";
export * from "./session/index.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./tools/truncate.js";
export { createWorkspaceTools, DEFAULT_BASH_TIMEOUT_SECONDS, type WorkspaceToolsOptions } from "./workspace-tools.js";
