// What a consumer sees for each server's wire format: the events in order and the one assistant.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import type { ModelEvent } from "@pi/core";
import { isTransientError } from "@pi/course";
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
const ends = (events: ModelEvent[]) =>
  events.flatMap((event) => (event.type === "toolcall_end" ? [event.toolCall] : []));
const last = (events: ModelEvent[]) => events.at(-1);

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

test("OpenAI 单个调用：每个参数片段一个 toolcall_delta，finish_reason 到达后一个 toolcall_end，done toolUse", async () => {
  const { events, assistant } = await replay("openai-one-call.sse");
  const call = {
    type: "toolCall",
    id: "call_Zq3Wd8kVb1mR7yTn2LxP0sHe",
    name: "read",
    arguments: { path: "README.md" },
  };
  assert.deepEqual(events, [
    { type: "start" },
    ...['{"', "path", '":"', "README", ".md", '"}'].map((delta) => ({ type: "toolcall_delta", delta })),
    { type: "toolcall_end", toolCall: call },
    { type: "done", reason: "toolUse" },
  ]);
  assert.deepEqual(assistant.content, [call]);
  assert.equal(assistant.stopReason, "toolUse");
  assert.deepEqual(assistant.usage, { input: 88, output: 15 });
});

test("两个并行调用按 index 交错到达：按 index 拆开，各自的参数完整", async () => {
  const { events, assistant } = await replay("openai-parallel-interleaved.sse");
  const calls = [
    { type: "toolCall", id: "call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby", name: "read", arguments: { path: "README.md" } },
    {
      type: "toolCall",
      id: "call_B8nF3cLw5Jd0Yg2Rq7Pk1Uxe",
      name: "read",
      arguments: { path: "src/index.ts", limit: 20 },
    },
  ];
  assert.deepEqual(argumentDeltas(events), [
    '{"path":',
    '{"path":"src/',
    '"README.md"',
    'index.ts","limit":',
    "20}",
    "}",
  ]);
  assert.deepEqual(ends(events), calls);
  assert.deepEqual(assistant.content, calls);
  assert.deepEqual(last(events), { type: "done", reason: "toolUse" });
});

test("参数在转义序列和 \\u 转义中间被切开、含多字节字符：拼接后解析一次，内容不变", async () => {
  const { events, assistant } = await replay("openai-split-arguments.sse");
  const args = { path: "笔记/说明.md", content: '第一行\n第二行 "引号" 文 ✓' };
  assert.equal(argumentDeltas(events).join(""), JSON.stringify(args).replace("文", "\\u6587"));
  assert.deepEqual(ends(events), [
    { type: "toolCall", id: "call_Wr1tE5pL1tArGs9Kq2Zm4Nx7", name: "write", arguments: args },
  ]);
  assert.equal(assistant.stopReason, "toolUse");
});

test("两个调用共用一个 id：第二个得到新的 id（<id>_<index>），事件与消息里一致，每个结果只配对一个调用", async () => {
  const shared = fixtureBytes("openai-parallel-interleaved.sse")
    .toString("utf8")
    .replaceAll("call_B8nF3cLw5Jd0Yg2Rq7Pk1Uxe", "call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby");
  server.reply(sse(Buffer.from(shared)));
  const { events, assistant } = await runTurn(model());
  const ids = ["call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby", "call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby_1"];
  assert.deepEqual(
    ends(events).map((call) => [call.id, call.arguments]),
    [
      [ids[0], { path: "README.md" }],
      [ids[1], { path: "src/index.ts", limit: 20 }],
    ],
  );
  assert.deepEqual(
    assistant.content.map((block) => (block.type === "toolCall" ? block.id : block.type)),
    ids,
  );
  assert.deepEqual(last(events), { type: "done", reason: "toolUse" });
});

test("Ollama 与 llama.cpp 把整个调用放在一个片段里：一个 toolcall_delta，一个 toolcall_end", async () => {
  for (const [fixture, id, usage] of [
    ["ollama-whole-call.sse", "call_u2kd8f1q", { input: 160, output: 19 }],
    ["llamacpp-whole-call.sse", "n1bQ4sTg8Xy2Rk6Vm0Lc3Jd5Pw9Ha7Ue", { input: 140, output: 18 }],
  ] as const) {
    const { events, assistant } = await replay(fixture);
    const call = { type: "toolCall", id, name: "read", arguments: { path: "README.md" } };
    assert.deepEqual(
      events,
      [
        { type: "start" },
        { type: "toolcall_delta", delta: '{"path":"README.md"}' },
        { type: "toolcall_end", toolCall: call },
        { type: "done", reason: "toolUse" },
      ],
      fixture,
    );
    assert.deepEqual(assistant.usage, usage, fixture);
  }
});

test("每个片段都重复 id：仍是一个调用，参数按片段拼接", async () => {
  const { events, assistant } = await replay("deepseek-repeated-id.sse");
  const call = {
    type: "toolCall",
    id: "call_0_9b2f7c41-8e3d-4a5b-b1c6-2d7e0f9a8c34",
    name: "read",
    arguments: { path: "README.md" },
  };
  assert.deepEqual(argumentDeltas(events), ['{"path":"', 'README.md"}']);
  assert.deepEqual(ends(events), [call]);
  assert.deepEqual(assistant.content, [call]);
  assert.deepEqual(assistant.usage, { input: 150, output: 21 });
});

test("vLLM 推理内容不进入回答；首个片段只有名字，最后一段参数与 finish_reason 同块", async () => {
  const { events, assistant } = await replay("vllm-reasoning-call.sse");
  assert.deepEqual(textDeltas(events), []);
  assert.deepEqual(argumentDeltas(events), ['{"path": "', "README.md", '"}']);
  assert.deepEqual(assistant.content, [
    { type: "toolCall", id: "chatcmpl-tool-5e2a9c1d7f3b4a8e", name: "read", arguments: { path: "README.md" } },
  ]);
  assert.deepEqual(assistant.usage, { input: 301, output: 44 });
});

test("DeepSeek 的 keep-alive 注释与 reasoning_content 被跳过，只留下回答文本", async () => {
  const { events, assistant } = await replay("deepseek-reasoning-text.sse");
  assert.deepEqual(events, [
    { type: "start" },
    { type: "text_delta", delta: "Pi" },
    { type: "text_delta", delta: "-course" },
    { type: "done", reason: "stop" },
  ]);
  assert.deepEqual(assistant.content, [{ type: "text", text: "Pi-course" }]);
  assert.deepEqual(assistant.usage, { input: 12, output: 9 });
});

test("Ollama 纯文本：每块都重复 role，空片段被忽略", async () => {
  const { events, assistant } = await replay("ollama-text.sse");
  assert.deepEqual(textDeltas(events), ["The", " project", " is", " pi-course."]);
  assert.equal(assistant.stopReason, "stop");
  assert.deepEqual(assistant.usage, { input: 210, output: 7 });
});

test("length：保留已收到的文本，done length", async () => {
  const { events, assistant } = await replay("llamacpp-length.sse");
  assert.deepEqual(last(events), { type: "done", reason: "length" });
  assert.deepEqual(assistant.content, [{ type: "text", text: "The README describes a course" }]);
  assert.equal(assistant.stopReason, "length");
  assert.deepEqual(assistant.usage, { input: 52, output: 4 });
});

test("content_filter：error，errorMessage 写明 finish_reason", async () => {
  const { events, assistant } = await replay("openai-content-filter.sse");
  assert.equal(assistant.stopReason, "error");
  assert.match(assistant.errorMessage ?? "", /^finish_reason "content_filter"/);
  assert.equal(isTransientError(assistant.errorMessage), false, "the Agent does not retry it");
  assert.deepEqual(last(events), { type: "error", reason: "error", message: assistant.errorMessage });
  assert.deepEqual(assistant.content, [{ type: "text", text: "I can" }]);
});

test("流以 [DONE] 结束却没有 finish_reason：error，而不是截断的成功", async () => {
  const { events, assistant } = await replay("ollama-no-finish-reason.sse");
  assert.equal(assistant.stopReason, "error");
  assert.match(assistant.errorMessage ?? "", /^no finish_reason: /);
  assert.equal(isTransientError(assistant.errorMessage), false, "the Agent does not retry it");
  assert.deepEqual(last(events), { type: "error", reason: "error", message: assistant.errorMessage });
  assert.deepEqual(assistant.content, [{ type: "text", text: "The project is" }]);
});
