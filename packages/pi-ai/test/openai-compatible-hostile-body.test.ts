// A 200 that is not what a chat stream can be ends the turn with one line naming what arrived:
// a page or a JSON object instead of an event stream, a `data: null`, one event past 16 MiB (sent
// plain or as a gzip bomb that inflates past it), a body past its bound. Against a real server on
// 127.0.0.1; none of these is retried.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { openAICompatibleModel } from "@pi/ai";
import { isTransientError } from "@pi/course";
import { guardedBodyFetch } from "../src/openai-compatible/guarded-body.js";
import { StreamProblem } from "../src/openai-compatible/stream-problem.js";
import { fixtureBytes } from "./support/fixtures.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";
import { LoopbackServer, type Reply, sse } from "./support/loopback-server.js";
import { runTurn } from "./support/turns.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

const model = () => openAICompatibleModel({ baseURL: server.baseURL, model: "m", apiKey: "sk-test" });

function answer(type: string, body: string): Reply {
  return async (response) => {
    response.writeHead(200, { "content-type": type });
    response.end(body);
  };
}

/** Sends `head` (with its headers), then never ends, until the client goes away. */
function stalled(head: Buffer, headers: Record<string, string> = {}): Reply {
  return async (response, closed) => {
    response.writeHead(200, { "content-type": "text/event-stream", ...headers });
    response.write(head);
    await closed;
  };
}

async function failureOf(reply: Reply): Promise<string> {
  const before = server.requests.length;
  server.reply(reply);
  const { events, assistant } = await runTurn(model());
  assert.equal(server.requests.length - before, 1, "one request: not retried");
  assert.equal(assistant.stopReason, "error");
  const message = assistant.errorMessage ?? "";
  assert.deepEqual(events.at(-1), { type: "error", reason: "error", message });
  assert.ok(!message.includes("\n"), message);
  assert.equal(isTransientError(message), false, `the Agent does not retry: ${message}`);
  return message;
}

test("200 却是 HTML 页面：error 说出服务器回答的是 text/html 而不是事件流，带上正文开头", async () => {
  const page = "<!doctype html>\n<html><head><title>Sign in</title></head><body>Please log in</body></html>";
  assert.equal(
    await failureOf(answer("text/html; charset=utf-8", page)),
    `200 not an event stream: the server answered with text/html; charset=utf-8, not text/event-stream ("<!doctype html> <html><head><title>Sign in</title></head><body>Please log in</body></html>"); check the base URL`,
  );
});

test("200 却是一整个 JSON（代理忽略了 stream: true）：error 说出 application/json，并指出代理", async () => {
  const completion = JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [
      { index: 0, message: { role: "assistant", content: "This project is pi-course." }, finish_reason: "stop" },
    ],
  });
  const message = await failureOf(answer("application/json", completion));
  assert.match(
    message,
    /^200 not an event stream: the server answered with application\/json, not text\/event-stream \("\{\\"id\\":\\"chatcmpl-1\\",\\"object\\":\\"chat\.completion\\".*…?\); a proxy in between may ignore "stream": true$/,
  );
});

test("data: null：error（malformed stream）说出数据行是 null，之前的文字保留", async () => {
  const text = fixtureBytes("openai-text.sse").toString("utf8");
  const cut = text.indexOf("data:", text.indexOf('" project"'));
  server.reply(sse(Buffer.from(`${text.slice(0, cut)}data: null\n\n`)));
  const { assistant } = await runTurn(model());
  assert.equal(assistant.errorMessage, "malformed stream: a data line holds null, not a chunk object");
  assert.deepEqual(assistant.content, [{ type: "text", text: "This project" }]);
});

test("一个事件超过 16 MiB（之后服务器不再发送）：这一轮以 stream too large 结束，而不是一直读下去", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const line = Buffer.from(`data: {"choices":[{"index":0,"delta":{"content":"${"a".repeat(17 * 2 ** 20)}`);
  assert.equal(await failureOf(stalled(line)), "stream too large: one event passed the 16 MiB this provider reads");
});

test("gzip 炸弹：压缩后几十 KB、解压后一行 64 MiB：解压到上限就结束，error 是 stream too large", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const bomb = gzipSync(Buffer.from(`data: {"choices":[{"index":0,"delta":{"content":"${"a".repeat(64 * 2 ** 20)}`));
  assert.ok(bomb.length < 1 * 2 ** 20, `compressed to ${bomb.length} bytes`);
  assert.equal(
    await failureOf(stalled(bomb, { "content-encoding": "gzip" })),
    "stream too large: one event passed the 16 MiB this provider reads",
  );
});

test("整个响应体超过上限（每个事件都很小）：读取以 stream too large 结束；上限之内按整事件交给 SDK，字节不变", async () => {
  const events = Buffer.from("data: {}\n\n".repeat(1000));
  const limits = { eventBytes: 64, bodyBytes: 4096 };
  const guarded = guardedBodyFetch(globalThis.fetch, limits);
  server.reply(sse(events, [3, 10, 11, 500, 4000]));
  const response = await guarded(`${server.baseURL}/chat/completions`, { method: "POST", body: "{}" });
  await assert.rejects(
    response.text(),
    (error: unknown) =>
      error instanceof StreamProblem &&
      error.message === "stream too large: the response passed the 4096 bytes this provider reads",
  );

  const small = Buffer.from('data: {"a":1}\r\n\r\ndata: {}\n\n: keep-alive\n\ndata: [DONE]\n\n');
  server.reply(sse(small, [1, 2, 5, 13, 14, 15, 16, 30]));
  const passed = await guardedBodyFetch(globalThis.fetch, { eventBytes: 20, bodyBytes: 4096 })(
    `${server.baseURL}/chat/completions`,
    { method: "POST", body: "{}" },
  );
  assert.deepEqual(Buffer.from(await passed.arrayBuffer()), small);
});
