// The REPL, driven through a pseudo-terminal: the conversation is kept across turns; on the Agent
// a line typed while a turn runs is steered into it, and survives an abort; turn by turn (a
// resumed session) it is sent after the turn. Ctrl-C aborts the running turn and the REPL goes
// on, a second Ctrl-C exits. Colour appears on a terminal, and never with NO_COLOR.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { heldReply, stallingReply, startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { PROMPT, ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { cliEnv, sessionFiles, sessionMessages, withWorkspace, writeSession } from "../cli-support/run-cli.js";

const skip = ptyUnavailable();
/** Select Graphic Rendition codes (colour), as opposed to readline's cursor movements. */
const hasColour = (screen: string) =>
  screen
    .split("\u001b[")
    .slice(1)
    .some((rest) => /^\d+m/.test(rest));

test("tiny-pi REPL（Agent）：开头一行说出 loop 与工具；运行中输入的一行转入这一轮，排在工具结果之后、下一次请求之前；跨轮保留对话；/exit 退出码 0；终端里有颜色", {
  skip,
}, async (t) => {
  const first = heldReply(toolCallReply("call_1", "read", { path: "README.md" }));
  const server = await startChatServer([
    first.reply,
    textReply(["项目名是 tiny-pi，版本见 README"]),
    textReply(["第二轮回答"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const pty = startOnPty(["--base-url", server.baseURL, "--model", "m"], workspace, cliEnv());
      t.after(() => pty.stop());
      await pty.waitFor(
        "loop（07）：课程的 runAgentLoop · 工具（08）：课程的 read · Agent（09）：课程的 Agent · 会话（10）：课程的 JsonlSessionStore · 压缩（11）：课程的 buildContext · 资源（12）：课程的 discoverResources · Runtime（13）：课程的 openRuntime · 运行中输入的一行转入这一轮（第 09 章的 Agent）",
      );
      await pty.waitFor(PROMPT);
      pty.type("项目叫什么？\r");
      await first.arrived;
      pty.type("顺便说说版本\r");
      await pty.waitFor("（已转入正在运行的这一轮：顺便说说版本）");
      first.release();
      await pty.waitFor("项目名是 tiny-pi，版本见 README");
      await pty.waitFor(PROMPT);
      await pty.ask("第二个问题", "第二轮回答");
      assert.equal(await pty.leave(), 0, pty.screen());

      const roles = (request: { messages: { role: string }[] }) => request.messages.map((message) => message.role);
      assert.deepEqual(roles(server.requests[1]), ["system", "user", "assistant", "tool", "user"]);
      assert.equal(server.requests[1].messages[4].content, "顺便说说版本", "转入的一行在工具结果之后");
      assert.deepEqual(roles(server.requests[2]), ["system", "user", "assistant", "tool", "user", "assistant", "user"]);
      assert.ok(hasColour(pty.screen()), "终端里着色");
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      const saved = (await sessionMessages(file)).map((message) => message.role);
      assert.deepEqual(saved, ["user", "assistant", "toolResult", "user", "assistant", "user", "assistant"]);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi REPL（--resume，也在第 09 章的 Agent 上）：开头一行说出输入的一行转入这一轮；带着旧对话继续，运行中输入的一行在这一轮的回答之后发出", {
  skip,
}, async (t) => {
  const first = heldReply(textReply(["第一轮回答"]));
  const server = await startChatServer([first.reply, textReply(["第二轮回答"])]);
  try {
    await withWorkspace(async (workspace) => {
      const file = path.join(workspace, "old.jsonl");
      const old = [
        { role: "user", content: "旧问题", timestamp: 1 },
        { role: "assistant", content: [{ type: "text", text: "旧回答" }], stopReason: "stop", timestamp: 2 },
      ];
      await writeSession(file, old);
      const pty = startOnPty(
        ["--base-url", server.baseURL, "--model", "m", "--resume", "old.jsonl"],
        workspace,
        cliEnv(),
      );
      t.after(() => pty.stop());
      await pty.waitFor(
        "loop（07）：课程的 runAgentLoop · 工具（08）：课程的 read · Agent（09）：课程的 Agent · 会话（10）：课程的 JsonlSessionStore · 压缩（11）：课程的 buildContext · 资源（12）：课程的 discoverResources · Runtime（13）：课程的 openRuntime · 运行中输入的一行转入这一轮（第 09 章的 Agent）",
      );
      await pty.waitFor(PROMPT);
      pty.type("新问题\r");
      await first.arrived;
      pty.type("接着问\r");
      await pty.waitFor("（已转入正在运行的这一轮：接着问）");
      first.release();
      await pty.waitFor("第二轮回答");
      await pty.waitFor(PROMPT);
      assert.equal(await pty.leave(), 0, pty.screen());
      const contents = server.requests[1].messages.slice(1).map((message: { content: string }) => message.content);
      assert.deepEqual(contents, ["旧问题", "旧回答", "新问题", "第一轮回答", "接着问"]);
      assert.equal((await sessionMessages(file)).length, 6, "新消息追加到继续的会话文件");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi REPL（Agent）：Ctrl-C 中止正在运行的一轮，排队的一行保留到下一条输入，REPL 继续；再按一次 Ctrl-C 退出（130）；NO_COLOR 时不着色", {
  skip,
}, async (t) => {
  const server = await startChatServer([stallingReply("想了很久"), textReply(["中止之后的回答"])]);
  try {
    await withWorkspace(async (workspace) => {
      const env = cliEnv({ NO_COLOR: "1" });
      const pty = startOnPty(["--base-url", server.baseURL, "--model", "m", "--no-session"], workspace, env);
      t.after(() => pty.stop());
      await pty.waitFor(PROMPT);
      pty.type("慢一点的问题\r");
      await pty.waitFor("想了很久");
      pty.type("排队的话\r");
      await pty.waitFor("（已转入正在运行的这一轮：排队的话）");
      pty.type("\u0003");
      await pty.waitFor("— aborted · 1 步");
      await pty.waitFor("这一轮已中止");
      await pty.waitFor("（还有 1 条排队的消息，会随下一条输入一起发送）");
      await pty.waitFor(PROMPT);
      await pty.ask("还在吗", "中止之后的回答");
      const sent = server.requests[1].messages
        .slice(1)
        .map((message: { role: string; content: string }) => [message.role, message.content]);
      assert.deepEqual(
        sent,
        [
          ["user", "慢一点的问题"],
          ["assistant", "想了很久"],
          ["user", "还在吗"],
          ["user", "排队的话"],
        ],
        "中止的一轮留在对话里，排队的一行没有丢",
      );
      pty.type("\u0003");
      await pty.waitFor("再按一次 Ctrl-C 退出");
      pty.type("\u0003");
      assert.equal(await pty.exited, 130, pty.screen());
      assert.equal(hasColour(pty.screen()), false, "NO_COLOR：不着色");
    });
  } finally {
    await server.close();
  }
});
