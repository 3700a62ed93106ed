// The errors an MCP connection reports. Each message is one line a user can act on.

/** A JSON-RPC error the server answered with; `code` is the server's (e.g. −32602 invalid params). */
export class McpRemoteError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`MCP ${method} failed: ${message} (JSON-RPC error ${code})`);
    this.name = "McpRemoteError";
  }
}

/** The connection cannot carry the request: closed, timed out, aborted or refused by the protocol. */
export class McpConnectionError extends Error {
  constructor(
    message: string,
    readonly reason: "closed" | "timeout" | "aborted" | "protocol" = "protocol",
  ) {
    super(message);
    this.name = "McpConnectionError";
  }
}
