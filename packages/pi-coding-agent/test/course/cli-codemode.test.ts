// tiny-pi with `--tools …,code` (chapter 16) against a loopback Chat Completions server: the model
// sends one script, the script calls the other chosen tools, the human view shows its nested calls
// indented under the code call, a nested write meets the same permission gate as a direct one, the
// session keeps the nested calls in the code result's details, and `tiny-pi export` draws them.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { sessionTimeline } from "../../src/cli/run-view/session-timeline.js";
import { readSessionFile } from "../../src/host/session-file.js";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

const model = (baseURL: string) => ["--base-url", baseURL, "--model", "m"];

const SCRIPT = `const a = await tools.read({path: "a.txt"});
const b = await tools.read({path: "b.txt"});
let wrote = "written";
try { await tools.write({path: "out.txt", content: a + "\\n" + b}) } catch (e) { wrote = e.message }
return {lines: (a + "\\n" + b).split("\\n").filter(Boolean).length, wrote};`;

test("tiny-pi --tools read,write,code：一段脚本调用 read 和 write，嵌套调用缩进显示；没有 --yes 时嵌套的 write 照样被权限门拒绝", async () => {
  await withWorkspace(async (workspace) => {
    await writeFile(path.join(workspace, "a.txt"), "one\ntwo\n");
    await writeFile(path.join(workspace, "b.txt"), "three\n");
    const server = await startChatServer([toolCallReply("call_1", "code", { code: SCRIPT }), textReply(["三行"])]);
    try {
      const run = await runCli([...model(server.baseURL), "--tools", "read,write,code", "数一数行"], workspace);
      assert.equal(run.code, 0, run.stderr);
      const declared = (server.requests[0] as { tools: { function: { name: string } }[] }).tools.map(
        (tool) => tool.function.name,
      );
      assert.deepEqual(declared, ["read", "write", "code"], "code 和其他选中的工具一起告诉模型");
      assert.match(run.stdout, /✓ code .*\n {6}✓ code-1\/1 read a\.txt/, "嵌套调用缩进在 code 下面");
      assert.match(run.stdout, /\n {6}✗ code-1\/3 write out\.txt/, "嵌套的 write 被拒绝");
      assert.equal(existsSync(path.join(workspace, "out.txt")), false, "没有 --yes：脚本也写不了文件");
      const result = (server.requests[1] as { messages: { role: string; content: string }[] }).messages.find(
        (message) => message.role === "tool",
      );
      assert.match(result?.content ?? "", /"lines":3/);
      assert.match(result?.content ?? "", /no terminal/);

      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      const { entries } = readSessionFile(file);
      const nested = sessionTimeline(entries).spans.filter((span) => span.callId?.startsWith("code-1/"));
      assert.deepEqual(
        nested.map((span) => [span.callId, span.label, span.state]),
        [
          ["code-1/1", "↳ read", "ok"],
          ["code-1/2", "↳ read", "ok"],
          ["code-1/3", "↳ write", "error"],
        ],
        "导出的时间线里有每个嵌套调用",
      );
      const exported = await runCli(["export", file, "--out", "run.html"], workspace);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(await readFile(path.join(workspace, "run.html"), "utf8"), /code-1\/3/);
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi --tools read,write,code --yes：脚本里的 write 和直接调用一样被允许", async () => {
  await withWorkspace(async (workspace) => {
    await writeFile(path.join(workspace, "a.txt"), "one\n");
    await writeFile(path.join(workspace, "b.txt"), "two\n");
    const server = await startChatServer([toolCallReply("call_1", "code", { code: SCRIPT }), textReply(["好"])]);
    try {
      const run = await runCli(
        [...model(server.baseURL), "--tools", "read,write,code", "--yes", "--no-session", "合并"],
        workspace,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(await readFile(path.join(workspace, "out.txt"), "utf8"), "one\ntwo");
    } finally {
      await server.close();
    }
  });
});
