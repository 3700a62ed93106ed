// --json prints every LoopEvent as a JSON line; sessions are JSON lines of messages in the
// workspace, continued by --resume and turned off by --no-session.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { cliEnv, runCli, sessionFiles, sessionMessages, withWorkspace, writeSession } from "../cli-support/run-cli.js";

test("tiny-pi --json：标准输出每行一个 Runtime 事件，顺序与章节的 README 往返一致：agent_start，loop 的事件，turn_end(stop)，最后 agent_end", async () => {
  const server = await startChatServer([
    toolCallReply("call_1", "read", { path: "README.md" }),
    textReply(["项目名是 tiny-pi。"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const args = ["--base-url", server.baseURL, "--model", "m", "--json", "读 README"];
      const result = await runCli(args, workspace, cliEnv({ OPENAI_API_KEY: "sk-env" }));
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(server.authorizations, ["Bearer sk-env", "Bearer sk-env"], "密钥默认取自 OPENAI_API_KEY");
      const events = result.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      const outline = events.map((event) => (event.type === "model_event" ? event.event.type : event.type));
      assert.deepEqual(
        outline.filter((type) => !type.endsWith("_delta")),
        [
          "agent_start",
          "start",
          "toolcall_end",
          "done",
          "assistant_message",
          "tool_start",
          "tool_end",
          "start",
          "done",
          "assistant_message",
          "turn_end",
          "agent_end",
        ],
      );
      assert.deepEqual(events.at(-2), { type: "turn_end", reason: "stop", steps: 2 });
      assert.equal(events.at(-1).result.reason, "stop", "agent_end 带着这一轮的结果");
      const toolEnd = events.find((event) => event.type === "tool_end");
      assert.equal(toolEnd.result.toolCallId, "call_1");
      assert.equal(toolEnd.result.isError, false);
      assert.match(toolEnd.result.content[0].text, /^# tiny-pi/);
      assert.equal(result.stderr.includes("项目名"), false, "回答只在 JSON 里");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 会话：写入 .tiny-pi/sessions/<时间>.jsonl；--resume 把旧消息带进下一次请求并追加到同一个文件", async () => {
  const server = await startChatServer([textReply(["第一轮回答"]), textReply(["第二轮回答"])]);
  try {
    await withWorkspace(async (workspace) => {
      const first = await runCli(["--base-url", server.baseURL, "--model", "m", "第一个问题"], workspace);
      assert.equal(first.code, 0, first.stderr);
      const [file, ...others] = await sessionFiles(workspace);
      assert.ok(file !== undefined && others.length === 0);
      assert.match(path.basename(file), /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.jsonl$/);
      assert.match(first.stderr, /会话：\.tiny-pi[/\\]sessions[/\\].*\.jsonl（用 --resume 继续）/);

      const relative = path.relative(workspace, file);
      const second = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "--resume", relative, "第二个问题"],
        workspace,
      );
      assert.equal(second.code, 0, second.stderr);
      assert.deepEqual(
        server.requests[1].messages.map((message: { role: string; content: string }) => [
          message.role,
          message.content,
        ]),
        [
          ["system", server.requests[1].messages[0].content],
          ["user", "第一个问题"],
          ["assistant", "第一轮回答"],
          ["user", "第二个问题"],
        ],
      );
      assert.deepEqual(await sessionFiles(workspace), [file], "继续的是同一个文件");
      const messages = await sessionMessages(file);
      assert.deepEqual(
        messages.map((message) => message.role),
        ["user", "assistant", "user", "assistant"],
      );
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi --resume 一个在工具批次中途被强行停下的会话：未配对的调用补上 aborted 结果，请求仍是合法的 transcript", async () => {
  const server = await startChatServer([textReply(["好的"])]);
  try {
    await withWorkspace(async (workspace) => {
      const file = path.join(workspace, "cut.jsonl");
      const call = { type: "toolCall", id: "call_9", name: "read", arguments: { path: "README.md" } };
      const lines = [
        { role: "user", content: "读 README", timestamp: 1 },
        { role: "assistant", content: [call], stopReason: "toolUse", timestamp: 2 },
      ];
      await writeSession(file, lines);
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "--resume", "cut.jsonl", "继续"],
        workspace,
      );
      assert.equal(result.code, 0, result.stderr);
      const roles = server.requests[0].messages.map((message: { role: string }) => message.role);
      assert.deepEqual(roles, ["system", "user", "assistant", "tool", "user"]);
      assert.equal(server.requests[0].messages[3].tool_call_id, "call_9");
      const saved = await sessionMessages(file);
      assert.deepEqual(
        saved.map((message) => message.role),
        ["user", "assistant", "toolResult", "user", "assistant"],
      );
      assert.deepEqual(saved[2]?.details, { skipped: true, reason: "aborted" });
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi --no-session：不创建 .tiny-pi", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(["--no-session"], workspace);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await sessionFiles(workspace), []);
    assert.equal(result.stderr.includes("会话："), false);
  });
});
