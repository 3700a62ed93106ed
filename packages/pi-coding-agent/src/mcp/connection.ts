// One JSON-RPC connection over a transport: unique ids, responses matched to their requests,
// timeouts and aborts that tell the server with `notifications/cancelled` (never for initialize,
// which a client must not cancel), late answers to a request no longer waited for ignored, and a
// closing transport rejecting every request still in flight.
import { McpConnectionError, McpRemoteError } from "./errors.js";
import { classifyMessage, type JsonRpcId } from "./jsonrpc-message.js";
import type { Transport } from "./transport.js";

export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds before the request is given up (and cancelled); default the connection's. */
  timeoutMs?: number;
}

export interface ConnectionOptions {
  /** Default request timeout (30 s). */
  timeoutMs?: number;
  /** A fault the connection survived: a garbage line, a message of no kind, an unknown response id. */
  onError?: (error: Error) => void;
  /** A notification or request from the server (this client answers requests with "method not found"). */
  onNotification?: (method: string, params: unknown) => void;
  /** The transport ended. */
  onClose?: (reason: string) => void;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private closedReason: string | undefined;

  private constructor(
    private readonly transport: Transport,
    private readonly options: ConnectionOptions,
  ) {}

  static async open(transport: Transport, options: ConnectionOptions = {}): Promise<JsonRpcConnection> {
    const connection = new JsonRpcConnection(transport, options);
    await transport.start({
      message: (value) => connection.receive(value),
      error: (error) => options.onError?.(error),
      close: (reason) => connection.closed(reason),
    });
    return connection;
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Requests waiting for an answer (for tests and `tiny-pi mcp`). */
  get inFlight(): number {
    return this.pending.size;
  }

  request(method: string, params?: object, options: RequestOptions = {}): Promise<unknown> {
    if (this.closedReason !== undefined) {
      return Promise.reject(
        new McpConnectionError(`MCP ${method}: connection closed (${this.closedReason})`, "closed"),
      );
    }
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new McpConnectionError(`MCP ${method} aborted`, "aborted"));
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => this.giveUp(id, new McpConnectionError(`MCP ${method} aborted`, "aborted"));
      const timer = setTimeout(
        () => this.giveUp(id, new McpConnectionError(`MCP ${method} timed out after ${timeoutMs} ms`, "timeout")),
        timeoutMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => {
        this.pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, {
        method,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      const message = { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
      this.transport.send(message).catch((error: Error) => this.pending.get(id)?.reject(error));
    });
  }

  /**
   * Stops waiting for request `id` (a timeout, the caller's abort, or the transport closing): the
   * caller gets `error`, and the server hears `notifications/cancelled` so it can stop the work.
   */
  private giveUp(id: JsonRpcId, error: McpConnectionError): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    // A client must not cancel initialize; a closed transport carries nothing more.
    if (pending.method !== "initialize" && error.reason !== "closed") {
      this.notify("notifications/cancelled", { requestId: id, reason: error.message }).catch(() => {
        // The transport is going away; the server will not run the request for long either.
      });
    }
    pending.reject(error);
  }

  notify(method: string, params?: object): Promise<void> {
    if (this.closedReason !== undefined) return Promise.resolve();
    return this.transport.send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }

  private receive(value: unknown): void {
    const message = classifyMessage(value);
    switch (message.kind) {
      case "invalid":
        this.options.onError?.(new Error(`MCP server sent a message of no JSON-RPC kind: ${message.reason}`));
        return;
      case "notification":
        this.options.onNotification?.(message.method, message.params);
        return;
      case "request":
        // This client offers no capabilities (no sampling, roots or elicitation).
        this.transport
          .send({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: -32601, message: `Method not found: ${message.method}` },
          })
          .catch(() => {});
        return;
      case "response": {
        // A response to a request no longer pending (cancelled, timed out) is late: ignored.
        this.pending.get(message.id)?.resolve(message.result);
        return;
      }
      case "error-response": {
        const pending = message.id === null ? undefined : this.pending.get(message.id);
        if (pending === undefined) {
          if (message.id === null) this.options.onError?.(new Error(`MCP server error: ${message.error.message}`));
          return;
        }
        pending.reject(
          new McpRemoteError(pending.method, message.error.code, message.error.message, message.error.data),
        );
        return;
      }
    }
  }

  private closed(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const [id, pending] of [...this.pending]) {
      this.giveUp(id, new McpConnectionError(`MCP ${pending.method}: connection closed (${reason})`, "closed"));
    }
    this.options.onClose?.(reason);
  }
}
