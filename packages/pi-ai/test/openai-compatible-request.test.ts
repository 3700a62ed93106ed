// What the server receives: the course's messages and tools in Chat Completions form.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type OpenAICompatibleCompat, openAICompatibleModel } from "@pi/ai";
import type { ModelRequest } from "@pi/core";
import { fixtureBytes } from "./support/fixtures.js";
import { LoopbackServer, sse } from "./support/loopback-server.js";
import { README_REQUEST, runTurn } from "./support/turns.js";

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

/** The body and headers the server received for one turn of `request`. */
async function received(
  request: ModelRequest,
  options: { compat?: OpenAICompatibleCompat; apiKey?: string; headers?: Record<string, string> } = {},
) {
  server.reply(sse(fixtureBytes("openai-text.sse")));
  const model = openAICompatibleModel({
    baseURL: server.baseURL,
    model: "qwen2.5:7b",
    apiKey: "apiKey" in options ? options.apiKey : "sk-test",
    headers: options.headers ?? { "x-course": "pi" },
    compat: options.compat,
  });
  const { assistant } = await runTurn(model, request);
  assert.equal(assistant.stopReason, "stop");
  const last = server.requests.at(-1);
  assert.ok(last);
  return last;
}

/** The README round trip after its tool call: a system prompt, text and a call, its result, a follow-up. */
const ROUND_TRIP: ModelRequest = {
  ...README_REQUEST,
  messages: [
    ...README_REQUEST.messages,
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me read it." },
        { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } },
      ],
      stopReason: "toolUse",
      timestamp: 1,
    },
    {
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "read",
      content: [
        { type: "text", text: "# pi-course" },
        { type: "text", text: "A course." },
      ],
      isError: false,
      timestamp: 2,
    },
    {
      role: "assistant",
      content: [{ type: "toolCall", id: "call-2", name: "read", arguments: { path: "文档.md", limit: 3 } }],
      stopReason: "toolUse",
      timestamp: 3,
    },
    {
      role: "toolResult",
      toolCallId: "call-2",
      toolName: "read",
      content: [{ type: "text", text: "not found" }],
      isError: true,
      timestamp: 4,
    },
    { role: "assistant", content: [], stopReason: "aborted", timestamp: 5, errorMessage: "aborted" },
    {
      role: "user",
      content: [
        { type: "text", text: "And" },
        { type: "text", text: "then?" },
      ],
      timestamp: 6,
    },
  ],
};

test("请求体：POST /v1/chat/completions，stream 与 include_usage，消息按角色映射，工具结果是 role tool 配 tool_call_id", async () => {
  const request = await received(ROUND_TRIP);
  assert.equal(request.method, "POST");
  assert.equal(request.url, "/v1/chat/completions");
  assert.equal(request.headers.authorization, "Bearer sk-test");
  assert.equal(request.headers["x-course"], "pi");
  assert.equal(request.body.model, "qwen2.5:7b");
  assert.equal(request.body.stream, true);
  assert.deepEqual(request.body.stream_options, { include_usage: true });
  assert.deepEqual(request.body.messages, [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "What is the project's name? Read README.md." },
    {
      role: "assistant",
      content: "Let me read it.",
      tool_calls: [{ id: "call-1", type: "function", function: { name: "read", arguments: '{"path":"README.md"}' } }],
    },
    { role: "tool", tool_call_id: "call-1", content: "# pi-course\nA course." },
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "call-2", type: "function", function: { name: "read", arguments: '{"path":"文档.md","limit":3}' } },
      ],
    },
    { role: "tool", tool_call_id: "call-2", content: "not found" },
    { role: "user", content: "And\nthen?" },
  ]);
  assert.deepEqual(request.body.tools, [
    {
      type: "function",
      function: {
        name: "read",
        description: "Read a file of the workspace.",
        parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    },
  ]);
});

test("没有工具时请求里不出现 tools 字段；没有 systemPrompt 时没有 system 消息", async () => {
  const request = await received({ messages: README_REQUEST.messages, tools: [] });
  assert.equal("tools" in request.body, false);
  assert.deepEqual(request.body.messages, [{ role: "user", content: "What is the project's name? Read README.md." }]);
});

test("没有 API key（本地服务器）：不发送 Authorization 头，除非 headers 自己带了", async () => {
  const saved = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
  try {
    const request = await received(README_REQUEST, { apiKey: undefined });
    assert.equal(request.headers.authorization, undefined);
    const proxied = await received(README_REQUEST, { apiKey: undefined, headers: { authorization: "Basic cHJveHk=" } });
    assert.equal(proxied.headers.authorization, "Basic cHJveHk=");
  } finally {
    if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
  }
});

test("compat：developer 角色、调用旁的 content 为 null、工具结果带 name、不要 usage", async () => {
  const request = await received(ROUND_TRIP, {
    compat: { systemRole: "developer", emptyAssistantContent: null, toolResultName: true, includeUsage: false },
  });
  const messages = request.body.messages;
  assert.deepEqual(messages[0], { role: "developer", content: "You are a coding agent." });
  assert.equal(messages[4].content, null);
  assert.deepEqual(messages[3], {
    role: "tool",
    tool_call_id: "call-1",
    content: "# pi-course\nA course.",
    name: "read",
  });
  assert.equal("stream_options" in request.body, false);
});

test("选项错误在创建时给出一行说明", () => {
  assert.throws(
    () => openAICompatibleModel({ baseURL: "localhost:11434", model: "m" }),
    /baseURL "localhost:11434" is not an http\(s\) URL; use e\.g\. http:\/\/localhost:11434\/v1/,
  );
  assert.throws(() => openAICompatibleModel({ baseURL: "http://127.0.0.1:1/v1", model: " " }), /model is empty/);
  assert.throws(
    () => openAICompatibleModel({ baseURL: "http://127.0.0.1:1/v1", model: "m", maxRetries: -1 }),
    /maxRetries must be a whole number/,
  );
  assert.throws(
    () => openAICompatibleModel({ baseURL: "http://learner:hunter22@127.0.0.1:1/v1", model: "m" }),
    (error: Error) =>
      error instanceof TypeError &&
      error.message.includes(
        "baseURL http://127.0.0.1:1/v1 must not carry a user name or password; pass the key as apiKey",
      ) &&
      !error.message.includes("hunter22") &&
      !error.message.includes("learner"),
  );
});
