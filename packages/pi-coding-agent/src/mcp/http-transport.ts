// MCP over Streamable HTTP (host side, beside the stdio transport; the same JSON-RPC connection runs
// over both). Each message is one POST; the server answers 202 (a notification), one JSON body, or a
// stream of server-sent events carrying messages. The session id the server gives at initialize and
// the agreed protocol version go on every later request; close ends the session with a DELETE.
import { SseParser } from "./sse-parser.js";
import type { Transport, TransportEvents } from "./transport.js";

export interface HttpServerOptions {
  url: string;
  headers?: Record<string, string>;
}

export class StreamableHttpTransport implements Transport {
  private events: TransportEvents | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly aborter = new AbortController();
  private closed = false;

  constructor(private readonly options: HttpServerOptions) {}

  async start(events: TransportEvents): Promise<void> {
    this.events = events;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: object): Promise<void> {
    if (this.closed) throw new Error("MCP HTTP transport is closed");
    const response = await fetch(this.options.url, {
      method: "POST",
      headers: { ...this.headers(), "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(message),
      signal: this.aborter.signal,
    });
    const session = response.headers.get("mcp-session-id");
    if (session !== null) this.sessionId = session;
    if (!response.ok) {
      const body = await response.text().catch(() => "");
      throw new Error(`MCP server answered HTTP ${response.status}${body === "" ? "" : `: ${body.slice(0, 200)}`}`);
    }
    if (response.status === 202 || response.body === null) {
      await response.body?.cancel();
      return;
    }
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) {
      void this.readEvents(response.body);
      return;
    }
    const text = await response.text();
    if (text.trim() === "") return;
    this.deliver(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.aborter.abort();
    if (this.sessionId !== undefined) {
      await fetch(this.options.url, { method: "DELETE", headers: this.headers(), signal: AbortSignal.timeout(2_000) })
        .then((response) => response.body?.cancel())
        .catch(() => {
          // The server may already be gone, or may not allow ending sessions (405): nothing to undo.
        });
    }
    this.events?.close("closed by the client");
  }

  private headers(): Record<string, string> {
    return {
      ...this.options.headers,
      ...(this.sessionId === undefined ? {} : { "mcp-session-id": this.sessionId }),
      ...(this.protocolVersion === undefined ? {} : { "mcp-protocol-version": this.protocolVersion }),
    };
  }

  private async readEvents(body: ReadableStream<Uint8Array>): Promise<void> {
    const parser = new SseParser((data) => this.deliver(data));
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>)
        parser.push(decoder.decode(chunk, { stream: true }));
      parser.end();
    } catch (error) {
      if (!this.closed) this.events?.error(new Error(`MCP event stream broke: ${(error as Error).message}`));
    }
  }

  /** One JSON message or a batch of them. */
  private deliver(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.events?.error(new Error(`MCP server sent a body that is not JSON: ${JSON.stringify(text.slice(0, 80))}`));
      return;
    }
    for (const message of Array.isArray(value) ? value : [value]) this.events?.message(message);
  }
}
