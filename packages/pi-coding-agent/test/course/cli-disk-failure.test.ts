// The disk fails under a running tiny-pi: the session folder is swapped for an empty one between
// two appends of a turn (a real failure at the file, not a stub), so the next append finds no
// file. The JSONL store then fails closed: the turn still ends, tiny-pi says in one line which file
// stopped being saved and why, and every entry committed before the fault is still in the file,
// which --resume continues.
import assert from "node:assert/strict";
import { mkdir, readFile, rename } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { heldReply, startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { finished, runCli, sessionFiles, sessionMessages, startCli, withWorkspace } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

/** Resolves once `file` holds `lines` complete lines (the store's writer has written that far). */
async function linesWritten(file: string, lines: number): Promise<void> {
  for (;;) {
    const content = await readFile(file, "utf8");
    if (content.split("\n").length - 1 >= lines) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("tiny-pi 运行中会话文件夹被换走（下一次追加找不到文件）：这一轮照常结束，一行说出哪个文件、什么故障；故障前提交的条目都还在文件里，--resume 能继续", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const answer = heldReply(textReply(["读完了"]));
  const server = await startChatServer([
    toolCallReply("call_1", "read", { path: "README.md" }),
    answer.reply,
    textReply(["继续"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", "m"];
      const child = startCli([...endpoint, "读 README"], workspace);
      const result = finished(child);
      await answer.arrived;
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined, "模型第一次回答后会话文件已经创建");
      // Header, the question, the call and its result: all written before the second request.
      await linesWritten(file, 4);
      const before = await readFile(file);

      const sessions = path.dirname(file);
      const moved = path.join(workspace, ".tiny-pi", "moved");
      await rename(sessions, moved);
      await mkdir(sessions);
      answer.release();
      const run = await result;

      assert.ok(run.stdout.includes("读完了"), `这一轮照常结束：${run.stdout}`);
      assert.equal(run.code, 0, "回答已经给出：退出码仍按这一轮的结束原因（stop）");
      const faults = run.stderr.split("\n").filter((line) => line.startsWith("会话没有保存完整"));
      assert.deepEqual(
        faults,
        [
          `会话没有保存完整：${file} 写入失败（ENOENT）：这个会话不再接受追加；已提交的条目仍在文件里，修好磁盘或权限后重新打开`,
        ],
        `恰好一行，说出文件与故障：\n${run.stderr}`,
      );
      const kept = path.join(moved, path.basename(file));
      assert.deepEqual(await readFile(kept), before, "故障前提交的字节一个也没少、没变");
      assert.deepEqual(
        (await sessionMessages(kept)).map((message) => message.role),
        ["user", "assistant", "toolResult"],
      );
      assert.deepEqual(await sessionFiles(workspace), [], "换上的空文件夹里没有凭空多出一个没有会话头的文件");

      const resumed = await runCli([...endpoint, "--resume", kept, "再来"], workspace);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(
        (await sessionMessages(kept)).map((message) => message.role),
        ["user", "assistant", "toolResult", "user", "assistant"],
        "继续时接在最后一个已提交的条目上",
      );
    });
  } finally {
    await server.close();
  }
});
