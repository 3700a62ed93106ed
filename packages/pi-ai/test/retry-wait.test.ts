// The fetch the SDK is given: it waits out a retry itself, abortably, and refuses waits above 60 s.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { REFUSED_WAIT_HEADER, requestedWaitMs, retryWaitingFetch } from "../src/openai-compatible/retry-fetch.js";
import { httpFixture } from "./support/fixtures.js";
import { httpReply, LoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

function post(retryCount: number, signal?: AbortSignal) {
  return retryWaitingFetch(2)(`${server.baseURL}/chat/completions`, {
    method: "POST",
    body: "{}",
    headers: { "x-stainless-retry-count": String(retryCount) },
    signal,
  });
}

test("retry-after-ms 优先于 retry-after；retry-after 可以是秒数或 HTTP 日期；没有则是 undefined", () => {
  assert.equal(requestedWaitMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" })), 250);
  assert.equal(requestedWaitMs(new Headers({ "retry-after": "1.5" })), 1500);
  const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
  const wait = requestedWaitMs(new Headers({ "retry-after": inTwoMinutes })) ?? 0;
  assert.ok(wait > 60_000 && wait <= 120_000, `${wait} ms`);
  assert.equal(requestedWaitMs(new Headers({ "retry-after": "soon" })), undefined);
  assert.equal(requestedWaitMs(new Headers()), undefined);
});

test("等待由这里完成：之后告诉 SDK 立即重试（retry-after-ms: 0）", async () => {
  server.reply(httpReply(httpFixture("openai-429.http"), { "retry-after-ms": "5" }));
  const response = await post(0);
  assert.equal(response.status, 429);
  assert.equal(response.headers.get("retry-after-ms"), "0");
  assert.equal(response.headers.get("retry-after"), null);
});

test("等待中取消：fetch 立即以取消拒绝，不留下计时器等满 30 秒", async () => {
  server.reply(httpReply(httpFixture("openai-429.http"), { "retry-after": "30" }));
  const controller = new AbortController();
  const before = server.requests.length;
  let outcome: unknown;
  const pending = post(0, controller.signal).then(
    () => "resolved",
    (error: unknown) => error,
  );
  void pending.then((value) => {
    outcome = value;
  });
  while (server.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort();
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(outcome instanceof Error && outcome.name === "AbortError", String(outcome));
});

test("服务器要求等待超过 60 秒：不等待，标记为不重试并记下要求的等待", async () => {
  server.reply(httpReply(httpFixture("openai-429.http"), { "retry-after": "120" }));
  const response = await post(0);
  assert.equal(response.headers.get("x-should-retry"), "false");
  assert.equal(response.headers.get(REFUSED_WAIT_HEADER), "120000");
});

test("最后一次尝试的错误响应原样交给 SDK，不等待", async () => {
  server.reply(httpReply(httpFixture("openai-429.http"), { "retry-after": "30" }));
  const response = await post(2);
  assert.equal(response.headers.get("retry-after"), "30");
  assert.equal(response.headers.get("retry-after-ms"), null);
});
