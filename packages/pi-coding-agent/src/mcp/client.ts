// An MCP client: a JSON-RPC connection over a transport, initialised within a startup limit, then
// asked for its tools and to call them. A server that fails to start or initialise is closed (its
// whole process tree) and reported in one line with the last line of its log.
import { callTool, callToolOrThrow, type McpCallResult } from "./call-tool.js";
import { type ConnectionOptions, JsonRpcConnection, type RequestOptions } from "./connection.js";
import { McpConnectionError } from "./errors.js";
import { type ClientInfo, initialize, type ServerHello } from "./lifecycle.js";
import { listTools, type McpToolInfo } from "./list-tools.js";
import type { Transport } from "./transport.js";

export interface McpClientOptions extends ConnectionOptions {
  client?: ClientInfo;
  /** How long initialize may take (5 s). */
  startupTimeoutMs?: number;
  /** The last line of the server's log, for a failed start's one line. */
  lastLogLine?: () => string | undefined;
}

export const TINY_PI_CLIENT: ClientInfo = { name: "tiny-pi", version: "0.7.0" };
export const DEFAULT_STARTUP_TIMEOUT_MS = 5_000;

export class McpClient {
  private constructor(
    readonly connection: JsonRpcConnection,
    readonly server: ServerHello,
  ) {}

  static async connect(transport: Transport, options: McpClientOptions = {}): Promise<McpClient> {
    let closeReason: string | undefined;
    const connection = await JsonRpcConnection.open(transport, {
      ...options,
      onClose: (reason) => {
        closeReason = reason;
        options.onClose?.(reason);
      },
    });
    try {
      const hello = await initialize(connection, options.client ?? TINY_PI_CLIENT, {
        timeoutMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
      });
      return new McpClient(connection, hello);
    } catch (error) {
      await connection.close();
      const log = options.lastLogLine?.();
      const why =
        error instanceof McpConnectionError && error.reason === "closed" && closeReason !== undefined
          ? closeReason
          : (error as Error).message;
      const withLog = log === undefined || why.includes(log) ? why : `${why}; last stderr line: ${log}`;
      throw new McpConnectionError(withLog, error instanceof McpConnectionError ? error.reason : "protocol");
    }
  }

  listTools(options: RequestOptions & { maxPages?: number } = {}): Promise<McpToolInfo[]> {
    return listTools(this.connection, options);
  }

  callTool(name: string, args?: Record<string, unknown>, options: RequestOptions = {}): Promise<McpCallResult> {
    return callTool(this.connection, name, args, options);
  }

  /** The call's text, or the tool's own failure thrown (so it is a failed result paired with its call). */
  callToolOrThrow(name: string, args?: Record<string, unknown>, options: RequestOptions = {}): Promise<string> {
    return callToolOrThrow(this.connection, name, args, options);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
