// Failures never throw from the stream: each ends the turn with one errored (or aborted) assistant.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import type { ModelEvent } from "@pi/core";
import { isTransientError } from "@pi/course";
import { fixtureBytes, httpFixture } from "./support/fixtures.js";
import {
  httpReply as fixtureReply,
  LoopbackServer,
  type Reply,
  resetAfter,
  sse,
  stallAfter,
} from "./support/loopback-server.js";
import { runTurn } from "./support/turns.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

function model(maxRetries?: number, baseURL = server.baseURL) {
  return openAICompatibleModel({ baseURL, model: "test-model", apiKey: "sk-test", maxRetries });
}

function httpReply(name: string, headers: Record<string, string> = {}): Reply {
  return fixtureReply(httpFixture(name), headers);
}

function assertFailed(events: ModelEvent[], reason: "error" | "aborted", message: string | undefined) {
  assert.deepEqual(events[0], { type: "start" });
  assert.deepEqual(events.at(-1), { type: "error", reason, message });
  assert.equal(events.filter((event) => event.type === "error" || event.type === "done").length, 1);
  assert.ok(message !== undefined && !message.includes("\n"), `one line: ${message}`);
}

/** Aborts, then checks that the turn settled before the event loop's next turn: no timer was waited for. */
async function abortAndExpectSettled(controller: AbortController, turn: Promise<unknown>) {
  let settled = false;
  void turn.then(() => {
    settled = true;
  });
  controller.abort();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, true, "the turn ended at once, without waiting out the retry delay");
}

test("401：不重试，error，errorMessage 以状态码开头并指出检查 API key", async () => {
  const before = server.requests.length;
  server.reply(httpReply("openai-401.http"));
  const { events, assistant } = await runTurn(model());
  assert.equal(server.requests.length - before, 1);
  assert.equal(assistant.stopReason, "error");
  assert.match(assistant.errorMessage ?? "", /^401 Incorrect API key provided: sk-bad\. .*\(check the API key\)$/);
  assert.deepEqual(assistant.content, []);
  assertFailed(events, "error", assistant.errorMessage);
  assert.equal(isTransientError(assistant.errorMessage), false);
});

test("401 的正文回显密钥与 Authorization：errorMessage 里只有 [redacted]，密钥一个字也不出现", async () => {
  const key = "sk-live-4f9c2a7e1b";
  const body = JSON.stringify({
    error: { message: `Incorrect API key provided: ${key}. Header was "Bearer ${key}", x-api-key tok-91827364.` },
  });
  server.reply(async (response) => {
    response.writeHead(401, { "content-type": "application/json" });
    response.end(body);
  });
  const headers = { "x-api-key": "tok-91827364" };
  const { assistant } = await runTurn(
    openAICompatibleModel({ baseURL: server.baseURL, model: "m", apiKey: key, headers }),
  );
  const message = assistant.errorMessage ?? "";
  assert.equal(
    message,
    '401 Incorrect API key provided: [redacted]. Header was "Bearer [redacted]", x-api-key [redacted]. (check the API key)',
  );
  assert.equal(message.includes("4f9c2a7e1b") || message.includes("91827364"), false);
});

test("404（Ollama 未拉取的模型）：error，errorMessage 带上服务器的说明和检查项", async () => {
  server.reply(httpReply("ollama-404.http"));
  const { assistant } = await runTurn(model());
  assert.equal(
    assistant.errorMessage,
    '404 model "llama9" not found, try pulling it first (check the base URL and the model name)',
  );
});

test("429 带 retry-after：等待后重试，第二次请求成功", async () => {
  const before = server.requests.length;
  server.reply(httpReply("openai-429.http"), sse(fixtureBytes("openai-text.sse")));
  const { assistant } = await runTurn(model());
  assert.equal(server.requests.length - before, 2);
  assert.equal(assistant.stopReason, "stop");
  assert.deepEqual(assistant.content, [{ type: "text", text: "This project is pi-course." }]);
});

test("429 要求等待超过 60 秒：不等待也不重试，error 写明服务器要求的等待，Agent 也不重试", async () => {
  for (const seconds of ["120", "1e9"]) {
    const before = server.requests.length;
    server.reply(httpReply("openai-429.http", { "retry-after": seconds }));
    const { events, assistant } = await runTurn(model());
    assert.equal(server.requests.length - before, 1);
    assert.match(assistant.errorMessage ?? "", /^429 Rate limit reached .*retry after \d+ s, more than the 60 s/);
    assertFailed(events, "error", assistant.errorMessage);
    assert.equal(isTransientError(assistant.errorMessage), false, `retry-after ${seconds}: a refusal is not transient`);
  }
});

test("重试等待中取消：立即以 aborted 结束，不再发第二次请求", async () => {
  const before = server.requests.length;
  server.reply(httpReply("openai-429.http", { "retry-after": "30" }));
  const controller = new AbortController();
  const turn = runTurn(model(), undefined, { signal: controller.signal });
  while (server.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
  await abortAndExpectSettled(controller, turn);
  const { events, assistant } = await turn;
  assert.equal(assistant.stopReason, "aborted");
  assertFailed(events, "aborted", assistant.errorMessage);
  assert.equal(server.requests.length - before, 1);
});

test("连接在响应头之前被重置、SDK 等待重试时取消：立即 aborted，不再发起第二次连接", async (t) => {
  let connections = 0;
  const resetting = createServer((socket) => {
    connections += 1;
    socket.resetAndDestroy();
  }).listen(0, "127.0.0.1");
  await once(resetting, "listening");
  t.after(() => resetting.close());
  const { port } = resetting.address() as { port: number };
  const controller = new AbortController();
  const turn = runTurn(model(2, `http://127.0.0.1:${port}/v1`), undefined, { signal: controller.signal });
  while (connections === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await abortAndExpectSettled(controller, turn);
  const { events, assistant } = await turn;
  assert.equal(assistant.stopReason, "aborted");
  assertFailed(events, "aborted", assistant.errorMessage);
  assert.equal(connections, 1);
});

test("500：重试用尽后 error，errorMessage 以 500 开头", async () => {
  const before = server.requests.length;
  server.reply(httpReply("openai-500.http", { "retry-after-ms": "1" }), httpReply("openai-500.http"));
  const { events, assistant } = await runTurn(model(1));
  assert.equal(server.requests.length - before, 2);
  assert.equal(assistant.errorMessage, "500 The server had an error while processing your request. Sorry about that!");
  assertFailed(events, "error", assistant.errorMessage);
  assert.equal(isTransientError(assistant.errorMessage), true);
});

test("连接在流中途被重置：error（stream interrupted），已收到的文本保留，未完成的调用不进入消息", async () => {
  const body = fixtureBytes("openai-text.sse");
  server.reply(resetAfter(body, body.indexOf(" is")));
  const { events, assistant } = await runTurn(model());
  assert.equal(assistant.stopReason, "error");
  assert.match(assistant.errorMessage ?? "", /^stream interrupted: /);
  assert.deepEqual(assistant.content, [{ type: "text", text: "This project" }]);
  assertFailed(events, "error", assistant.errorMessage);
  assert.equal(isTransientError(assistant.errorMessage), true);

  const call = fixtureBytes("openai-one-call.sse");
  server.reply(resetAfter(call, call.indexOf("README")));
  const cut = await runTurn(model());
  assert.match(cut.assistant.errorMessage ?? "", /^stream interrupted: /);
  assert.deepEqual(cut.assistant.content, []);
  assert.equal(cut.events.filter((event) => event.type === "toolcall_end").length, 0);
});

test("没有服务器在监听：error（connection error），说出地址", async () => {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, "close");
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const { events, assistant } = await runTurn(model(0, baseURL));
  assert.equal(assistant.stopReason, "error");
  assert.equal(
    assistant.errorMessage,
    `connection error: cannot reach ${baseURL} (ECONNREFUSED); is the server running?`,
  );
  assertFailed(events, "error", assistant.errorMessage);
  assert.equal(isTransientError(assistant.errorMessage), true);
});

test("慢速流中取消：HTTP 请求被中止，aborted，已收到的文本保留", async () => {
  const body = fixtureBytes("openai-text.sse");
  const before = server.requests.length;
  server.reply(stallAfter(body.subarray(0, body.indexOf("\n\n", body.indexOf('"This"')) + 2)));
  const controller = new AbortController();
  const { events, assistant } = await runTurn(model(), undefined, { signal: controller.signal }, (event) => {
    if (event.type === "text_delta") controller.abort();
  });
  assert.equal(assistant.stopReason, "aborted");
  assert.deepEqual(assistant.content, [{ type: "text", text: "This" }]);
  assertFailed(events, "aborted", assistant.errorMessage);
  while (!server.abandoned.includes(before + 1)) await new Promise((resolve) => setTimeout(resolve, 5));
});

test("已经取消的 signal：不发请求，直接 aborted", async () => {
  const before = server.requests.length;
  const { events, assistant } = await runTurn(model(), undefined, { signal: AbortSignal.abort() });
  assert.equal(assistant.stopReason, "aborted");
  assertFailed(events, "aborted", assistant.errorMessage);
  assert.equal(server.requests.length, before);
});

test("参数不是合法 JSON：调用保留（参数为 {}）以便 loop 配对，error 点名这个调用", async () => {
  const body = fixtureBytes("openai-one-call.sse").toString("utf8").replace('"{\\"', '"{\\"\\"');
  server.reply(sse(Buffer.from(body)));
  const { events, assistant } = await runTurn(model());
  assert.equal(assistant.stopReason, "error");
  assert.match(
    assistant.errorMessage ?? "",
    /^the arguments of tool call "read" \(call_Zq3Wd8kVb1mR7yTn2LxP0sHe\) are not valid JSON \(/,
  );
  assert.deepEqual(assistant.content, [
    { type: "toolCall", id: "call_Zq3Wd8kVb1mR7yTn2LxP0sHe", name: "read", arguments: {} },
  ]);
  assert.equal(events.filter((event) => event.type === "toolcall_end").length, 1);
  assertFailed(events, "error", assistant.errorMessage);
  assert.equal(isTransientError(assistant.errorMessage), false);
});

test("流中出现服务器的错误对象：error（stream error），Agent 只在措辞说过载时重试", async () => {
  for (const [message, transient] of [
    ["Invalid schema for function 'read'.", false],
    ["The model is overloaded. Please try again later.", true],
  ] as const) {
    const error = JSON.stringify({ error: { message, type: "server_error", code: null } });
    server.reply(sse(Buffer.from(`data: ${error}\n\n`)));
    const { assistant } = await runTurn(model());
    assert.equal(assistant.errorMessage, `stream error: ${message}`);
    assert.equal(isTransientError(assistant.errorMessage), transient, message);
  }
});

test("数据行不是合法 JSON：error（malformed stream），控制台上什么也不打印", async (t) => {
  // The SDK binds console.error once per process, so its output is caught where console writes it.
  const printed: unknown[] = [];
  t.mock.method(process.stderr, "write", (chunk: unknown) => printed.push(chunk) > 0);
  const body = fixtureBytes("openai-text.sse").toString("utf8").replace('{"content":" is"}', '{"content":" is"');
  server.reply(sse(Buffer.from(body)));
  const { assistant } = await runTurn(model());
  t.mock.restoreAll();
  assert.equal(assistant.stopReason, "error");
  assert.match(assistant.errorMessage ?? "", /^malformed stream: a chunk is not valid JSON \(/);
  assert.deepEqual(assistant.content, [{ type: "text", text: "This project" }]);
  assert.deepEqual(printed, []);
  assert.equal(isTransientError(assistant.errorMessage), false);
});

test("baseURL 的查询串里带着密钥（?api_key=…）：连不上时 errorMessage 里只有 [redacted]，密钥一个字也不出现", async () => {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, "close");
  const secret = "sk-query-9Rt5Wq2Zp";
  const { assistant } = await runTurn(model(0, `http://127.0.0.1:${port}/v1?api_key=${secret}&api-version=2024`));
  assert.equal(assistant.stopReason, "error");
  assert.equal(assistant.errorMessage?.includes(secret), false, assistant.errorMessage);
  assert.match(assistant.errorMessage ?? "", /api_key=\[redacted\]&api-version=2024/);
});
