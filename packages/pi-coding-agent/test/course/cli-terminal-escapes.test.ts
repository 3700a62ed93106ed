// What the model, a tool's output or a server writes reaches the person's terminal as text: escape
// sequences (clear screen, window title, OSC 52 clipboard writes) are shown escaped, not obeyed.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { visible } from "../../src/host/visible-text.js";
import { errorReply, startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { runCli, withWorkspace, writeSession } from "../cli-support/run-cli.js";

const CLIPBOARD = "\u001b]52;c;cm0gLXJmIH4=\u0007";
const CLEAR = "\u001b[2J\u001b[H";
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for raw control characters
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test("控制字符显示为 \\xNN：换行与制表符照常，换行前的 CR 去掉，ESC、BEL、DEL 与 C1 都转义", () => {
  assert.equal(visible("a\tb\r\nc\n"), "a\tb\nc\n");
  assert.equal(visible(`${CLEAR}x\r`), "\\x1b[2J\\x1b[Hx\\x0d");
  assert.equal(visible(CLIPBOARD), "\\x1b]52;c;cm0gLXJmIH4=\\x07");
  assert.equal(visible("\u007f\u009b31m"), "\\x7f\\x9b31m");
  assert.equal(visible("中文 é"), "中文 é");
});

test("tiny-pi 的人读视图：模型文字、工具输出和服务器的错误里的转义序列都显示为 \\xNN，终端收不到一个控制字符", async () => {
  const server = await startChatServer([
    toolCallReply("call-1", "read", { path: "evil.txt" }),
    textReply([`项目名${CLEAR}`, `是 tiny-pi${CLIPBOARD}。`]),
    errorReply(400, `bad request${CLIPBOARD}`, "invalid_request_error"),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      await writeFile(path.join(workspace, "evil.txt"), `title\u001b]0;pwned\u0007 here\n`);
      const args = ["--base-url", server.baseURL, "--model", "m", "--no-session"];
      const answered = await runCli([...args, "请读取 evil.txt"], workspace);
      assert.equal(answered.code, 0, answered.stderr);
      assert.doesNotMatch(answered.stdout, RAW_CONTROL, JSON.stringify(answered.stdout));
      assert.match(answered.stdout, /项目名\\x1b\[2J\\x1b\[H是 tiny-pi\\x1b\]52;c;cm0gLXJmIH4=\\x07。/);
      assert.match(answered.stdout, /✓ read evil\.txt → title\\x1b\]0;pwned\\x07 here/);

      const failed = await runCli([...args, "再来一次"], workspace);
      assert.equal(failed.code, 1);
      assert.doesNotMatch(failed.stderr, RAW_CONTROL, JSON.stringify(failed.stderr));
      assert.match(failed.stderr, /bad request\\x1b\]52;c;cm0gLXJmIH4=\\x07/);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi tree 与 tiny-pi sessions：会话文件里（问题、回答、会话名、文件名）的转义序列显示为 \\xNN", async () => {
  await withWorkspace(async (workspace) => {
    const dir = path.join(workspace, ".tiny-pi", "sessions");
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `evil${CLEAR}.jsonl`);
    await writeSession(file, [
      { role: "user", content: `问题${CLIPBOARD}`, timestamp: 1 },
      { role: "assistant", content: [{ type: "text", text: `回答${CLEAR}` }], stopReason: "stop", timestamp: 2 },
    ]);
    const tree = await runCli(["tree", file], workspace);
    assert.equal(tree.code, 0, tree.stderr);
    assert.doesNotMatch(tree.stdout, RAW_CONTROL, JSON.stringify(tree.stdout));
    assert.match(tree.stdout, /问题\\x1b\]52;c;cm0gLXJmIH4=\\x07/);
    assert.match(tree.stdout, /回答\\x1b\[2J\\x1b\[H/);
    const sessions = await runCli(["sessions"], workspace);
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.doesNotMatch(sessions.stdout, RAW_CONTROL, JSON.stringify(sessions.stdout));
    assert.match(sessions.stdout, /evil\\x1b\[2J\\x1b\[H\.jsonl .*问题\\x1b\]52;c;cm0gLXJmIH4=\\x07/);
  });
});
