export { callTool, callToolOrThrow, contentText, type McpCallResult, McpToolFailure } from "./call-tool.js";
export { DEFAULT_STARTUP_TIMEOUT_MS, McpClient, type McpClientOptions, TINY_PI_CLIENT } from "./client.js";
export {
  type ConnectionOptions,
  DEFAULT_REQUEST_TIMEOUT_MS,
  JsonRpcConnection,
  type RequestOptions,
} from "./connection.js";
export { McpConnectionError, McpRemoteError } from "./errors.js";
export { type HttpServerOptions, StreamableHttpTransport } from "./http-transport.js";
export { classifyMessage, type JsonRpcId, type JsonRpcMessage } from "./jsonrpc-message.js";
export {
  type ClientInfo,
  initialize,
  LATEST_PROTOCOL_VERSION,
  type ServerHello,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./lifecycle.js";
export { DEFAULT_MAX_PAGES, listTools, type McpToolInfo } from "./list-tools.js";
export { DEFAULT_MAX_LINE_BYTES, NdjsonReader } from "./ndjson-reader.js";
export { mcpTools } from "./server-tools.js";
export { type StdioServerOptions, StdioTransport } from "./stdio-transport.js";
export { MAX_TOOL_NAME_LENGTH, mcpToolName } from "./tool-names.js";
export type { Transport, TransportEvents } from "./transport.js";
