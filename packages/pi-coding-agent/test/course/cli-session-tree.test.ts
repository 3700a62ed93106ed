// tiny-pi on the session tree, as a learner runs it (a real child process, the embedded model or
// a chat server on 127.0.0.1): --resume --leaf branches in the same file, `tree` and `sessions`
// show it, Pi's own file is continued, and a tiny-pi killed with SIGKILL mid-turn leaves a file
// --resume opens with every committed entry. The REPL's /tree and /branch run on a pseudo-terminal.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { stallingReply, startChatServer, textReply } from "../cli-support/chat-server.js";
import { PROMPT, ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { cliEnv, finished, isOneLine, runCli, sessionFiles, startCli, withWorkspace } from "../cli-support/run-cli.js";

const PI_FIXTURE = fileURLToPath(new URL("../../../test/fixtures/pi-v3-session.jsonl", import.meta.url));

interface Line {
  type: string;
  id: string;
  parentId: string | null;
  parentSession?: string;
  message?: { role: string; content: unknown };
  customType?: string;
}

/** Resolves once `child` has printed `text` on stdout. */
function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    child.stdout?.on("data", (chunk: string) => {
      if (chunk.includes(text)) resolve();
    });
  });
}

async function entriesOf(file: string): Promise<Line[]> {
  return (await readFile(file, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Line)
    .filter((entry) => entry.customType !== "tiny-pi/durable"); // chapter 19's records annotate entries
}

test("tiny-pi --resume FILE --leaf ID：在同一个文件里从较早的条目长出新分支，旧字节是前缀；tree 画出两条分支并标出叶；sessions 列出它", async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    const before = await readFile(file, "utf8");
    const [, firstUser] = await entriesOf(file);
    assert.ok(firstUser !== undefined);

    const branched = await runCli(["--resume", file, "--leaf", firstUser.id, "再读一次 README.md"], workspace);
    assert.equal(branched.code, 0, branched.stderr);
    assert.ok((await readFile(file, "utf8")).startsWith(before), "旧字节是精确前缀");
    const entries = (await entriesOf(file)).slice(1);
    assert.equal(entries.length, 8, "同一个文件：第一条分支 4 个条目，新分支 4 个");
    assert.equal(entries[4]?.parentId, firstUser.id, "新分支的第一个条目挂在 --leaf 选的条目下面");

    const tree = await runCli(["tree", file], workspace);
    assert.equal(tree.code, 0, tree.stderr);
    assert.match(tree.stdout, /8 个条目 · 2 个分支/, "tree 数出两个分支");
    assert.match(tree.stdout, /├─ /, "分支点画出分叉");
    const leafLine = tree.stdout.split("\n").find((line) => line.includes("← 叶"));
    assert.ok(leafLine?.includes(entries[7]?.id ?? "?"), "叶是最后追加的条目");

    const sessions = await runCli(["sessions"], workspace);
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.match(sessions.stdout, /8 个条目 · 2 个分支 · 请读取 README\.md/, "sessions：条目、分支与第一个问题");
  });
});

test("tiny-pi --resume 一个按 Pi 的格式写成的会话文件：在它的叶上继续，新条目追加到同一个文件", async () => {
  await withWorkspace(async (workspace) => {
    const file = path.join(workspace, "from-pi.jsonl");
    await copyFile(PI_FIXTURE, file);
    const before = await readFile(file, "utf8");
    const result = await runCli(["--resume", file, "请读取 README.md，并告诉我项目名。"], workspace);
    assert.equal(result.code, 0, result.stderr);
    assert.ok((await readFile(file, "utf8")).startsWith(before), "Pi 的字节原样留在前面");
    const added = (await entriesOf(file)).slice(before.trimEnd().split("\n").length);
    assert.equal(added[0]?.parentId, "0fd4b7e9", "新条目挂在 Pi 文件的叶上");
  });
});

test("tiny-pi 在一轮中途被 SIGKILL：--resume 打开文件，已提交的条目都在（包括这一轮的问题）", async () => {
  const server = await startChatServer([textReply(["第一轮回答"]), stallingReply("我正在想"), textReply(["好了"])]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", "m"];
      assert.equal((await runCli([...endpoint, "第一个问题"], workspace)).code, 0);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);

      const child = startCli([...endpoint, "--resume", file, "第二个问题"], workspace);
      const result = finished(child);
      await printed(child, "我正在想");
      child.kill("SIGKILL");
      await result;

      const roles = (await entriesOf(file)).slice(1).map((entry) => entry.message?.role);
      assert.deepEqual(
        roles,
        ["user", "assistant", "user"],
        "这一轮的问题在请求发出之前就已提交（第 19 章：先提交，再让由它得出的东西可见）",
      );
      const resumed = await runCli([...endpoint, "--resume", file, "第三个问题"], workspace);
      assert.equal(resumed.code, 0, resumed.stderr);
      const contents = server.requests[2].messages.slice(1).map((message: { content: string }) => message.content);
      assert.deepEqual(
        contents,
        ["第一个问题", "第一轮回答", "第二个问题", "第三个问题"],
        "继续时带着每个已提交的条目",
      );
    });
  } finally {
    await server.close();
  }
});

test("同一个会话文件只有一个写入者：第二个 tiny-pi 一行拒绝并写出另一个进程的 id，文件不变；第一个结束后锁随之移除", async () => {
  const server = await startChatServer([textReply(["第一轮回答"]), stallingReply("我正在想")]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", "m"];
      assert.equal((await runCli([...endpoint, "第一个问题"], workspace)).code, 0);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      assert.equal(existsSync(`${file}.lock`), false, "运行结束后没有留下锁");

      const writer = startCli([...endpoint, "--resume", file, "第二个问题"], workspace);
      const done = finished(writer);
      await printed(writer, "我正在想");
      const before = await readFile(file, "utf8");
      const second = await runCli(["--resume", file, "插一句"], workspace);
      assert.equal(second.code, 2, "第二个写入者以用法错误退出");
      assert.ok(isOneLine(second.stderr), second.stderr);
      assert.match(second.stderr, new RegExp(`进程 ${writer.pid}`), "拒绝写出正在写的进程");
      assert.equal(await readFile(file, "utf8"), before, "文件不变");
      writer.kill("SIGINT");
      await done;
      assert.equal(existsSync(`${file}.lock`), false, "第一个写入者结束后锁被移除");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi --fork FILE：新文件的会话头记下原文件，原文件不变", async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    const before = await readFile(file, "utf8");
    const forked = await runCli(["--fork", file, "再读一次 README.md"], workspace);
    assert.equal(forked.code, 0, forked.stderr);
    assert.equal(await readFile(file, "utf8"), before, "原文件不变");
    const files = await sessionFiles(workspace);
    assert.equal(files.length, 2, "多了一个会话文件");
    const copy = await entriesOf(files.find((candidate) => candidate !== file) as string);
    assert.equal(copy[0]?.parentSession, file, "会话头记下原文件");
    assert.equal(copy.length, 1 + 8, "复制的 4 个条目加上新的一轮");
  });
});

test("tiny-pi REPL：/tree 画出会话树，/branch ID 把叶移到较早的条目，下一条输入在同一个文件里长出新分支", {
  skip: ptyUnavailable(),
}, async (t) => {
  const server = await startChatServer([
    textReply(["第一轮回答"]),
    textReply(["第二轮回答"]),
    textReply(["重来的回答"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const pty = startOnPty(["--base-url", server.baseURL, "--model", "m"], workspace, cliEnv());
      t.after(() => pty.stop());
      await pty.waitFor(PROMPT);
      pty.type("第一个问题\r");
      await pty.waitFor("第一轮回答");
      await pty.waitFor(PROMPT);
      pty.type("第二个问题\r");
      await pty.waitFor("第二轮回答");
      await pty.waitFor(PROMPT);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      const [, , firstAnswer] = await entriesOf(file);
      assert.ok(firstAnswer !== undefined);

      pty.type("/tree\r");
      await pty.waitFor("4 个条目 · 1 个分支");
      pty.type(`/branch ${firstAnswer.id}\r`);
      await pty.waitFor(`叶已移到 ${firstAnswer.id}`);
      pty.type("换一个问题\r");
      await pty.waitFor("重来的回答");
      await pty.waitFor(PROMPT);
      pty.type("/exit\r");
      assert.equal(await pty.leave(), 0, pty.screen());

      const contents = server.requests[2].messages.slice(1).map((message: { content: string }) => message.content);
      assert.deepEqual(contents, ["第一个问题", "第一轮回答", "换一个问题"], "新分支的请求只带所选分支的消息");
      const entries = (await entriesOf(file)).slice(1);
      assert.equal(entries.length, 6, "同一个文件");
      assert.equal(entries[4]?.parentId, firstAnswer.id, "新分支挂在 /branch 选的条目下面");
    });
  } finally {
    await server.close();
  }
});
