// What a consumer sees for each server's wire format: the events in order and the one assistant.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import type { ModelEvent } from "@pi/core";
import { fixtureBytes } from "./support/fixtures.js";
import { LoopbackServer, sse } from "./support/loopback-server.js";
import { runTurn } from "./support/turns.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

function model() {
  return openAICompatibleModel({ baseURL: server.baseURL, model: "test-model", apiKey: "sk-test" });
}

async function replay(fixture: string) {
  server.reply(sse(fixtureBytes(fixture)));
  return runTurn(model());
}

const textDeltas = (events: ModelEvent[]) =>
  events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : []));
const argumentDeltas = (events: ModelEvent[]) =>
  events.flatMap((event) => (event.type === "toolcall_delta" ? [event.delta] : []));
const types = (events: ModelEvent[]) => [...new Set(events.map((event) => event.type))];

test("OpenAI 纯文本：start、每个文本片段一个 text_delta、done stop，usage 来自只有 usage 的末块", async () => {
  const { events, assistant } = await replay("openai-text.sse");
  assert.deepEqual(events, [
    { type: "start" },
    { type: "text_delta", delta: "This" },
    { type: "text_delta", delta: " project" },
    { type: "text_delta", delta: " is" },
    { type: "text_delta", delta: " pi-course" },
    { type: "text_delta", delta: "." },
    { type: "done", reason: "stop" },
  ]);
  assert.deepEqual(assistant.content, [{ type: "text", text: "This project is pi-course." }]);
  assert.equal(assistant.stopReason, "stop");
  assert.equal(assistant.errorMessage, undefined);
  assert.deepEqual(assistant.usage, { input: 41, output: 6 });
});
