// A real HTTP server on 127.0.0.1 that answers each POST with the next scripted reply and records
// what it received. Never any other address.
import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { HttpFixture } from "./fixtures.js";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON body is checked field by field by the tests
  body: any;
}

/** Writes one response. `closed` resolves when the client goes away before the response ended. */
export type Reply = (response: ServerResponse, closed: Promise<void>) => Promise<void>;

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

/** Cuts `body` at the given byte offsets (sorted, deduplicated, inside the body). */
export function cutAt(body: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts)].filter((cut) => cut > 0 && cut < body.length).sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of [...points, body.length]) {
    pieces.push(body.subarray(start, point));
    start = point;
  }
  return pieces;
}

async function writePiece(response: ServerResponse, piece: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) => response.write(piece, (error) => (error ? reject(error) : resolve())));
}

/** A 200 event stream: the body written as separate writes, one per piece (one piece by default). */
export function sse(body: Buffer, cuts: readonly number[] = []): Reply {
  return async (response) => {
    response.writeHead(200, SSE_HEADERS);
    for (const piece of cutAt(body, cuts)) {
      await writePiece(response, piece);
      await nextTurn();
    }
    response.end();
  };
}

/** An HTTP error response as the fixture holds it. */
export function httpReply(fixture: HttpFixture, extraHeaders: Record<string, string> = {}): Reply {
  return async (response) => {
    response.writeHead(fixture.status, { ...fixture.headers, ...extraHeaders });
    response.end(fixture.body);
  };
}

/** A 200 event stream whose connection is destroyed after `bytes` bytes: no [DONE], no clean end. */
export function resetAfter(body: Buffer, bytes: number): Reply {
  return async (response) => {
    response.writeHead(200, SSE_HEADERS);
    await writePiece(response, body.subarray(0, bytes));
    await nextTurn();
    response.socket?.destroy();
  };
}

/** A 200 event stream that sends `head` and then stalls until the client goes away. */
export function stallAfter(head: Buffer): Reply {
  return async (response, closed) => {
    response.writeHead(200, SSE_HEADERS);
    await writePiece(response, head);
    await closed;
  };
}

export class LoopbackServer {
  readonly requests: ReceivedRequest[] = [];
  /** One entry per request whose client went away before the response ended. */
  readonly abandoned: number[] = [];
  private readonly replies: Reply[] = [];
  private readonly listeners: ((request: ReceivedRequest) => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseURL: string,
  ) {}

  static async start(): Promise<LoopbackServer> {
    const server = createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const loopback = new LoopbackServer(server, `http://127.0.0.1:${port}/v1`);
    server.on("request", (request, response) => void loopback.answer(request, response));
    return loopback;
  }

  /** Queues replies for the next requests, in order. */
  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The next request this server receives, once its body has been read. */
  nextRequest(): Promise<ReceivedRequest> {
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close");
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const received: ReceivedRequest = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
    const number = this.requests.push(received);
    for (const listener of this.listeners.splice(0)) listener(received);
    const closed = new Promise<void>((resolve) =>
      response.on("close", () => {
        if (!response.writableFinished) this.abandoned.push(number);
        resolve();
      }),
    );
    const reply = this.replies.shift();
    if (reply === undefined) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `loopback server: no reply scripted for request ${number}` } }));
      return;
    }
    await reply(response, closed).catch(() => response.destroy());
  }
}
