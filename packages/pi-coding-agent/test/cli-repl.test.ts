// The REPL, driven through a pseudo-terminal: the conversation is kept across turns, a line typed
// while a turn runs is sent after it, Ctrl-C aborts the running turn and the REPL goes on, a
// second Ctrl-C exits. Colour appears on a terminal, and never with NO_COLOR.
import assert from "node:assert/strict";
import { test } from "node:test";
import { stallingReply, startChatServer, textReply } from "./cli-support/chat-server.js";
import { ptyUnavailable, startOnPty } from "./cli-support/pty.js";
import { cliEnv, sessionFiles, sessionMessages, withWorkspace } from "./cli-support/run-cli.js";

const skip = ptyUnavailable();
// Select Graphic Rendition: the colour codes, as opposed to readline's cursor movements.
const COLOUR = new RegExp("\u001b\\[\\d+m");

test("tiny-pi REPL：跨轮保留对话，运行中输入的一行排队在本轮之后发送，/exit 退出码 0，终端里有颜色", {
  skip,
}, async (t) => {
  const server = await startChatServer([
    textReply(["第一轮回答"]),
    textReply(["第二轮回答"]),
    textReply(["第三轮回答"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const pty = startOnPty(["--base-url", server.baseURL, "--model", "m"], workspace, cliEnv());
      t.after(() => pty.stop());
      let at = await pty.waitFor("› ");
      pty.type("第一个问题\r");
      at = await pty.waitFor("第一轮回答", at);
      at = await pty.waitFor("— ", at);
      at = await pty.waitFor("› ", at);
      pty.type("第二个问题\r第三个问题\r");
      at = await pty.waitFor("第三轮回答", at);
      at = await pty.waitFor("› ", at);
      pty.type("/exit\r");
      assert.equal(await pty.exited, 0, pty.screen());

      assert.equal(server.requests.length, 3);
      const contents = server.requests[2].messages.slice(1).map((message: { content: string }) => message.content);
      assert.deepEqual(contents, ["第一个问题", "第一轮回答", "第二个问题", "第二轮回答", "第三个问题"]);
      assert.match(pty.screen(), /（已排队，这一轮结束后发送：第三个问题）/);
      assert.match(pty.screen(), COLOUR, "终端里着色");
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      assert.equal((await sessionMessages(file)).length, 6, "一个 REPL 会话一个文件，三轮六条消息");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi REPL：Ctrl-C 中止正在运行的一轮，REPL 继续；再按一次 Ctrl-C 退出（130）；NO_COLOR 时不着色", {
  skip,
}, async (t) => {
  const server = await startChatServer([stallingReply("想了很久"), textReply(["中止之后的回答"])]);
  try {
    await withWorkspace(async (workspace) => {
      const env = cliEnv({ NO_COLOR: "1" });
      const pty = startOnPty(["--base-url", server.baseURL, "--model", "m", "--no-session"], workspace, env);
      t.after(() => pty.stop());
      let at = await pty.waitFor("› ");
      pty.type("慢一点的问题\r");
      at = await pty.waitFor("想了很久", at);
      pty.type("\u0003");
      at = await pty.waitFor("— aborted · 1 步", at);
      at = await pty.waitFor("这一轮已中止", at);
      at = await pty.waitFor("› ", at);
      pty.type("还在吗\r");
      at = await pty.waitFor("中止之后的回答", at);
      at = await pty.waitFor("› ", at);
      const contents = server.requests[1].messages.slice(1).map((message: { role: string }) => message.role);
      assert.deepEqual(contents, ["user", "assistant", "user"], "中止的一轮留在对话里");
      pty.type("\u0003");
      at = await pty.waitFor("再按一次 Ctrl-C 退出", at);
      pty.type("\u0003");
      assert.equal(await pty.exited, 130, pty.screen());
      assert.doesNotMatch(pty.screen(), COLOUR, "NO_COLOR：不着色");
    });
  } finally {
    await server.close();
  }
});
