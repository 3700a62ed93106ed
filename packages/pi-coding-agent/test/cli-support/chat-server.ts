// A Chat Completions endpoint on 127.0.0.1 (never any other address) for the CLI tests: each POST
// to /v1/chat/completions gets the next scripted reply, written in OpenAI's wire format, and every
// request body is recorded for the test to read.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Reply = (response: ServerResponse) => Promise<void> | void;

export interface ChatServer {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseURL: string;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are read field by field by the tests
  requests: any[];
  /** Authorization headers, in request order. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export interface ChatServerOptions {
  /** The body GET /v1/models answers with (an OpenAI model list); without it, 404 like other routes. */
  models?: object;
}

export async function startChatServer(replies: Reply[], options: ChatServerOptions = {}): Promise<ChatServer> {
  // biome-ignore lint/suspicious/noExplicitAny: see ChatServer.requests
  const requests: any[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    void answer(request, response);
  });
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    if (request.method === "GET" && request.url === "/v1/models" && options.models !== undefined) {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(options.models));
      return;
    }
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      response.writeHead(404, { "content-type": "application/json" }).end(`{"error":{"message":"no route"}}`);
      return;
    }
    requests.push(JSON.parse(body));
    authorizations.push(request.headers.authorization);
    const reply = replies[requests.length - 1];
    if (reply === undefined) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(`{"error":{"message":"test server: no reply scripted for request ${requests.length}"}}`);
      return;
    }
    await reply(response);
  };
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One `data:` line holding a chat.completion.chunk, as OpenAI writes it. */
function chunk(choices: unknown[], usage?: object): string {
  const body = {
    id: "chatcmpl-tinypi",
    object: "chat.completion.chunk",
    created: 1764518400,
    model: "gpt-4o-mini-2024-07-18",
    system_fingerprint: "fp_tinypi",
    choices,
    ...(usage !== undefined ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const usageChunk = (input: number, output: number) =>
  chunk([], { prompt_tokens: input, completion_tokens: output, total_tokens: input + output });

function streamReply(events: string[]): Reply {
  return async (response) => {
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    for (const event of events) response.write(event);
    response.end("data: [DONE]\n\n");
  };
}

/** An answer streamed in the given text fragments, ending `stop`, with usage. */
export function textReply(fragments: string[], tokens = { input: 40, output: 8 }): Reply {
  return streamReply([
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]),
    ...fragments.map((content) => chunk([{ index: 0, delta: { content }, logprobs: null, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]),
    usageChunk(tokens.input, tokens.output),
  ]);
}

/** One tool call, its arguments split in two fragments, ending `tool_calls`, with usage. */
export function toolCallReply(id: string, name: string, args: object, tokens = { input: 30, output: 12 }): Reply {
  return toolCallsReply([{ id, name, args }], tokens);
}

/** One batch of tool calls in one answer (each call's arguments split in two fragments), ending `tool_calls`, with usage. */
export function toolCallsReply(
  calls: readonly { id: string; name: string; args: object }[],
  tokens = { input: 30, output: 12 },
): Reply {
  const call = (fields: object) =>
    chunk([{ index: 0, delta: { tool_calls: [fields] }, logprobs: null, finish_reason: null }]);
  return streamReply([
    chunk([{ index: 0, delta: { role: "assistant", content: null }, logprobs: null, finish_reason: null }]),
    ...calls.flatMap(({ id, name, args }, index) => {
      const json = JSON.stringify(args);
      const half = Math.floor(json.length / 2);
      return [
        call({ index, id, type: "function", function: { name, arguments: "" } }),
        call({ index, function: { arguments: json.slice(0, half) } }),
        call({ index, function: { arguments: json.slice(half) } }),
      ];
    }),
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "tool_calls" }]),
    usageChunk(tokens.input, tokens.output),
  ]);
}

/** An HTTP error with OpenAI's JSON error body. */
export function errorReply(status: number, message: string, code: string): Reply {
  return (response) => {
    response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify({ error: { message, type: "invalid_request_error", param: null, code } }));
  };
}

/** A 200 stream that sends a first fragment and then never ends, until the client goes away. */
export function stallingReply(first: string): Reply {
  return async (response) => {
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    response.write(chunk([{ index: 0, delta: { role: "assistant", content: first }, finish_reason: null }]));
    await once(response, "close");
  };
}

/** `reply`, held back until the test releases it; `arrived` resolves when its request came in. */
export function heldReply(reply: Reply): { reply: Reply; arrived: Promise<void>; release(): void } {
  let release!: () => void;
  let arrive!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return {
    reply: async (response) => {
      arrive();
      await released;
      await reply(response);
    },
    arrived,
    release,
  };
}
