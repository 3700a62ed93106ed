// A data line that parses as JSON but is not a chunk (an array, `choices: null`, a null delta or
// tool-call fragment), and an "event stream" that holds no data line at all (an HTML page sent as
// text/event-stream), end the turn with one line naming what arrived. Before, these came out as
// "no finish_reason" (which tiny-pi answers with "try again") or as "stream interrupted: Cannot
// read properties of null", which the Agent retries as transient. Real server on 127.0.0.1.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import { isTransientError } from "@pi/course";
import { LoopbackServer, sse } from "./support/loopback-server.js";
import { runTurn } from "./support/turns.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

const model = () => openAICompatibleModel({ baseURL: server.baseURL, model: "m", apiKey: "sk-test" });

async function failureOf(body: string): Promise<string> {
  const before = server.requests.length;
  server.reply(sse(Buffer.from(body)));
  const { events, assistant } = await runTurn(model());
  assert.equal(server.requests.length - before, 1, "one request: not retried");
  assert.equal(assistant.stopReason, "error");
  const message = assistant.errorMessage ?? "";
  assert.deepEqual(events.at(-1), { type: "error", reason: "error", message });
  assert.equal(isTransientError(message), false, `the Agent does not retry: ${message}`);
  return message;
}

const chunk = (choices: unknown) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices })}\n\n`;

test("数据行是 JSON 数组：error（malformed stream）说出收到的是 [1,2]，而不是 no finish_reason", async () => {
  assert.equal(
    await failureOf("data: [1,2]\n\ndata: [DONE]\n\n"),
    "malformed stream: a data line holds [1,2], not a chunk object",
  );
});

test("choices 是 null：error（malformed stream）说出 choices 不是列表，不是 Cannot read properties of null", async () => {
  assert.equal(
    await failureOf('data: {"id":"c","choices":null}\n\ndata: [DONE]\n\n'),
    "malformed stream: a chunk's choices is null, not a list",
  );
});

test("delta 或 tool_calls 里的一项是 null：error（malformed stream）说出是哪一项", async () => {
  assert.equal(await failureOf(chunk([null])), "malformed stream: a chunk's choices[0] is null, not an object");
  assert.equal(
    await failureOf(chunk([{ index: 0, delta: { tool_calls: [null] }, finish_reason: null }])),
    "malformed stream: a chunk's choices[0].delta.tool_calls[0] is null, not an object",
  );
  assert.equal(
    await failureOf(chunk([{ index: 0, delta: { tool_calls: { index: 0 } }, finish_reason: null }])),
    'malformed stream: a chunk\'s choices[0].delta.tool_calls is {"index":0}, not a list',
  );
});

test("content-type 是 text/event-stream、正文却是 HTML（没有一行 data:）：error 说出正文开头并让人检查地址", async () => {
  assert.equal(
    await failureOf("<html><body>Please log in</body></html>\n"),
    '200 not an event stream: the server answered with text/event-stream; charset=utf-8, but the body holds no data: line ("<html><body>Please log in</body></html>"); check the base URL',
  );
});

test("只有注释行与 [DONE] 之外什么都没有的正常流不受影响：注释行之后的 data: 行照常读出", async () => {
  server.reply(
    sse(
      Buffer.from(
        `: keep-alive\n\n${chunk([{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }])}data: [DONE]\n\n`,
      ),
    ),
  );
  const { assistant } = await runTurn(model());
  assert.equal(assistant.stopReason, "stop");
  assert.deepEqual(assistant.content, [{ type: "text", text: "hi" }]);
});
