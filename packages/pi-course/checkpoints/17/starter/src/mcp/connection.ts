// Checkpoint 17 · 学习脚手架：JSON-RPC 连接。request()、notify()、close() 与 closed() 已经写好；Lab 17.1 是 receive()，
// Lab 17.4 是 giveUp()。Lab 17.1 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="消息" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
    // Lab 17.4 ①：不再等请求 id（超时、调用方中止、传输关闭都走到这里）：
    //   this.pending 里没有它（已经有了响应，或者已经放弃过）→ 什么也不做。
    //   否则，除非它是 initialize（客户端不能取消 initialize）或 error.reason 是 "closed"（传输已经没了），
    //   发通知 notifications/cancelled，params 是 { requestId: id, reason: error.message }（this.notify，失败时忽略）；
    //   然后 pending.reject(error)：它会清掉计时器、中止监听，并从 this.pending 删掉这个 id，之后迟到的响应
    //   在 receive() 里找不到它，被忽略。
    // 临时：giveUp() 在计时器、中止监听与传输的关闭事件里运行，那里抛出的错误没有人接住；所以先接住它，
    // 交给这个请求，测试很快失败而不是一直等。写好以后连同 try/catch 一起删掉。
    try {
      throw new Error("Lab 17.4 时间与取消 尚未实现");
    } catch (error) {
      this.pending.get(id)?.reject(error as Error);
    }
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
    // Lab 17.1 ④：classifyMessage(value) 分类以后：
    //   invalid → this.options.onError?.(一个 Error，消息含 "no JSON-RPC kind" 与原因)，连接照常工作；
    //   notification → this.options.onNotification?.(method, params)；
    //   request（服务器问客户端）→ 这个客户端什么能力也不提供：用它的 id 回
    //     { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } }（发送失败时忽略）；
    //   response → this.pending.get(id)?.resolve(result)：不在等的 id（已经放弃的请求迟到的响应）被忽略；
    //   error-response → 在等的请求 reject(new McpRemoteError(pending.method, code, message, data))；不在等的忽略，
    //     只有 id 为 null 的（服务器读不懂某个请求）交给 onError。
    throw new Error("Lab 17.1 消息 尚未实现");
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
