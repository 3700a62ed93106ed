// One AbortSignal serves a whole agent turn, which may ask the model 32 times. The openai SDK adds
// an abort listener to the signal it is given for every request and never removes it, so before
// this change a 15-step turn printed Node's MaxListenersExceededWarning and each step's request
// stayed reachable from the signal. The provider gives the SDK a signal of its own per request.
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { after, before, test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import { fixtureBytes } from "./support/fixtures.js";
import { LoopbackServer, sse } from "./support/loopback-server.js";
import { runTurn } from "./support/turns.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

test("同一个 signal 上连续 20 次请求：请求结束后 signal 上不留 abort 监听器，取消仍然生效", async () => {
  const model = openAICompatibleModel({ baseURL: server.baseURL, model: "m", apiKey: "sk-test" });
  const controller = new AbortController();
  for (let step = 0; step < 20; step += 1) {
    server.reply(sse(fixtureBytes("openai-text.sse")));
    const { assistant } = await runTurn(model, undefined, { signal: controller.signal });
    assert.equal(assistant.stopReason, "stop");
  }
  assert.equal(getEventListeners(controller.signal, "abort").length, 0, "abort listeners left on the turn's signal");

  server.reply(async (response, closed) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(": waiting\n\n");
    controller.abort();
    await closed;
  });
  const { assistant } = await runTurn(model, undefined, { signal: controller.signal });
  assert.equal(assistant.stopReason, "aborted");
});
