// End to end: chapter 07's runAgentLoop drives the provider through the README round trip against
// the loopback server, with a read tool on a real file in a temp workspace.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import { ToolRegistry, text, userMessage } from "@pi/core";
import { Agent, type LoopEvent, runAgentLoop } from "@pi/course";
import { fixtureBytes } from "./support/fixtures.js";
import { LoopbackServer, sse } from "./support/loopback-server.js";

function readTool(root: string) {
  return {
    name: "read",
    description: "Read a file of the workspace.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
      additionalProperties: false,
    },
    execute: async (args: Record<string, unknown>) => ({
      content: [text(await readFile(path.join(root, String(args.path)), "utf8"))],
    }),
  };
}

test("runAgentLoop 经真实 HTTP 完成 README 往返：第二次请求带着 read 的结果，最终回答来自服务器", async (t) => {
  const workspace = await mkdtemp(path.join(tmpdir(), "pi-ai-loop-"));
  t.after(() => rm(workspace, { recursive: true, force: true }));
  await writeFile(path.join(workspace, "README.md"), "# pi-course\n\nRebuild a coding agent.\n");
  const server = await LoopbackServer.start();
  t.after(() => server.close());
  server.reply(sse(fixtureBytes("openai-one-call.sse")), sse(fixtureBytes("openai-text.sse")));

  const events: LoopEvent[] = [];
  const result = await runAgentLoop({
    model: openAICompatibleModel({ baseURL: server.baseURL, model: "gpt-4o-mini", apiKey: "sk-test" }),
    context: { systemPrompt: "You are a coding agent.", messages: [userMessage("What is this project called?", 0)] },
    tools: new ToolRegistry().register(readTool(workspace)),
    onEvent: (event) => events.push(event),
  });

  assert.equal(result.reason, "stop");
  assert.equal(result.steps, 2);
  assert.deepEqual(
    result.messages.map((message) => message.role),
    ["user", "assistant", "toolResult", "assistant"],
  );
  const toolResult = result.messages[2];
  assert.ok(toolResult?.role === "toolResult");
  assert.equal(toolResult.toolCallId, "call_Zq3Wd8kVb1mR7yTn2LxP0sHe");
  assert.equal(toolResult.isError, false);
  assert.deepEqual(toolResult.content, [text("# pi-course\n\nRebuild a coding agent.\n")]);
  const answer = result.messages[3];
  assert.ok(answer?.role === "assistant");
  assert.deepEqual(answer.content, [text("This project is pi-course.")]);
  assert.deepEqual(answer.usage, { input: 41, output: 6 });

  assert.equal(server.requests.length, 2);
  const [first, second] = server.requests.map((request) => request.body);
  assert.deepEqual(
    first.tools.map((tool: { function: { name: string } }) => tool.function.name),
    ["read"],
  );
  assert.deepEqual(second.messages.slice(2), [
    {
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id: "call_Zq3Wd8kVb1mR7yTn2LxP0sHe",
          type: "function",
          function: { name: "read", arguments: '{"path":"README.md"}' },
        },
      ],
    },
    {
      role: "tool",
      tool_call_id: "call_Zq3Wd8kVb1mR7yTn2LxP0sHe",
      content: "# pi-course\n\nRebuild a coding agent.\n",
    },
  ]);
  assert.deepEqual(
    events.filter((event) => event.type === "turn_end"),
    [{ type: "turn_end", reason: "stop", steps: 2 }],
  );
});

test("第 09 章的 Agent 经真实 HTTP：服务器要求等待 1e9 秒，provider 不等，Agent 也不重试：只有一次请求，以 error 结束", async (t) => {
  const server = await LoopbackServer.start();
  t.after(() => server.close());
  server.reply(async (response) => {
    response.writeHead(429, { "content-type": "application/json", "retry-after": "1e9" });
    response.end(
      JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }),
    );
  });
  const agent = new Agent({
    model: openAICompatibleModel({ baseURL: server.baseURL, model: "m", apiKey: "sk-test" }),
    tools: new ToolRegistry(),
    retry: { baseDelayMs: 0 },
  });
  const retries: unknown[] = [];
  agent.subscribe((event) => {
    if (event.type === "retry") retries.push(event);
  });
  const result = await agent.prompt(userMessage("hi", 0));
  assert.equal(result.reason, "error");
  assert.deepEqual(retries, [], "no retry event");
  assert.equal(server.requests.length, 1, "one request: the refusal is not retried");
});
