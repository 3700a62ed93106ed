// What Pi writes every day, read by tiny-pi's host (pi-entries.ts): each of Pi's entries becomes the
// message Pi's convertToLlm sends, or an entry no context builder reads; a malformed one keeps
// chapter 10's one-line refusal. Through the CLI: a fork refuses Pi's entries before it writes,
// and a server that refuses images gets one line naming the fix.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { BRANCH_SUMMARY_PREFIX, BRANCH_SUMMARY_SUFFIX, readPiEntry } from "../src/host/pi-entries.js";
import { checkEntry } from "../src/session/parse-entry.js";
import { errorReply, startChatServer } from "./cli-support/chat-server.js";
import { isOneLine, runCli, sessionFiles, withWorkspace } from "./cli-support/run-cli.js";

const at = "2026-12-01T10:00:00.000Z";
const base = { id: "0000000a", parentId: null, timestamp: at };
const bash = (fields: object) => ({
  ...base,
  type: "message",
  message: {
    role: "bashExecution",
    command: "ls",
    output: "a\nb",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: 5,
    ...fields,
  },
});
/** The text of the user message a stand-in sends, or "unsent". */
function sends(value: unknown): string {
  const entry = readPiEntry(value) as unknown as {
    type: string;
    message?: { role: string; content: { text: string }[] };
  };
  if (entry.type === "pi_unsent") return "unsent";
  assert.equal(entry.type, "message");
  assert.equal(entry.message?.role, "user");
  return (entry.message?.content ?? []).map((block) => block.text).join("|");
}

test("Pi 的 bashExecution：发送为 user 消息 Ran `命令` 加围栏里的输出；退出码、取消与截断各加一段；!! 的不发送", () => {
  assert.equal(sends(bash({})), "Ran `ls`\n```\na\nb\n```");
  assert.equal(sends(bash({ output: "" })), "Ran `ls`\n(no output)");
  assert.equal(sends(bash({ exitCode: 2 })), "Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2");
  assert.equal(sends(bash({ cancelled: true, exitCode: null })), "Ran `ls`\n```\na\nb\n```\n\n(command cancelled)");
  assert.equal(
    sends(bash({ truncated: true, fullOutputPath: "/tmp/x.log" })),
    "Ran `ls`\n```\na\nb\n```\n\n[Output truncated. Full output: /tmp/x.log]",
  );
  assert.equal(sends(bash({ excludeFromContext: true })), "unsent", "!! 的命令不进上下文");
});

test("Pi 的 custom 不发送；custom_message 是 user 消息；branch_summary 用 Pi 的摘要包装，空摘要不发送", () => {
  assert.equal(sends({ ...base, type: "custom", customType: "state", data: { n: 1 } }), "unsent");
  assert.equal(sends({ ...base, type: "custom_message", customType: "note", content: "注意", display: true }), "注意");
  assert.equal(
    sends({
      ...base,
      type: "custom_message",
      customType: "note",
      content: [{ type: "text", text: "块" }],
      display: false,
    }),
    "块",
  );
  assert.equal(
    sends({ ...base, type: "branch_summary", fromId: "0000000b", summary: "试过 A" }),
    `${BRANCH_SUMMARY_PREFIX}试过 A${BRANCH_SUMMARY_SUFFIX}`,
  );
  assert.equal(sends({ ...base, type: "branch_summary", fromId: "0000000b", summary: "" }), "unsent");
});

test("Pi 的图片：user 消息的文字照常发送，图片按原来的顺序留在 piContent 里；条目保留 Pi 的原文", () => {
  const content = [
    { type: "image", data: "AAAA", mimeType: "image/png" },
    { type: "text", text: "这是什么？" },
  ];
  const entry = readPiEntry({
    ...base,
    type: "message",
    message: { role: "user", content, timestamp: 5 },
  }) as unknown as {
    message: { content: unknown; piContent: unknown };
    pi: unknown;
  };
  assert.deepEqual(entry.message.content, [{ type: "text", text: "这是什么？" }]);
  assert.deepEqual(entry.message.piContent, content);
  assert.equal((entry.pi as { id: string }).id, "0000000a");
});

test("形状不对的 Pi 条目与第 10 章不认识的类型：保持第 10 章的一行拒绝；第 10 章的读取器自己仍然严格", () => {
  for (const value of [
    bash({ command: 3 }),
    { ...base, type: "custom" },
    { ...base, type: "branch_summary", summary: "x" },
    { ...base, type: "message", message: { role: "user", content: [{ type: "image", data: "AAAA" }], timestamp: 5 } },
    { ...base, type: "mystery" },
  ]) {
    assert.throws(() => readPiEntry(value), /条目|消息|message/, JSON.stringify(value));
  }
  assert.throws(() => checkEntry(bash({})), /bashExecution/, "第 10 章的 checkEntry 不认识 bashExecution");
  assert.throws(
    () => checkEntry({ ...base, type: "custom", customType: "s" }),
    /这一章只读 pi-course\/tool-state/,
    "第 10 章的读取器（第 15 章起认得工具状态）不认识别的 customType",
  );
});

async function piFileIn(workspace: string, lines: object[]): Promise<string> {
  const dir = path.join(workspace, ".tiny-pi", "sessions");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "pi.jsonl");
  const header = {
    type: "session",
    version: 3,
    id: "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e",
    timestamp: at,
    cwd: workspace,
  };
  await writeFile(file, [header, ...lines].map((line) => `${JSON.stringify(line)}\n`).join(""));
  return file;
}

test("tiny-pi --fork 一个有 Pi 条目的分支：一行说明改用 --resume，退出码 2，不写新文件", async () => {
  await withWorkspace(async (workspace) => {
    const file = await piFileIn(workspace, [bash({})]);
    const result = await runCli(["--fork", file, "-p", "继续"], workspace);
    assert.equal(result.code, 2, result.stderr);
    assert.ok(isOneLine(result.stderr.trim()), result.stderr);
    assert.match(result.stderr, /--fork 只复制 tiny-pi 自己的条目.*0000000a（bashExecution）.*--resume/);
    assert.deepEqual(await sessionFiles(workspace), [file], "没有新文件");
  });
});

test("tiny-pi --resume 带图片的 Pi 会话，服务器拒绝图片（400）：一行说明换支持图片的模型，退出码 1", async () => {
  const server = await startChatServer([errorReply(400, "Model does not support image input", "invalid_request")]);
  try {
    await withWorkspace(async (workspace) => {
      const image = { type: "image", data: "AAAA", mimeType: "image/png" };
      const file = await piFileIn(workspace, [
        {
          ...base,
          type: "message",
          message: { role: "user", content: [{ type: "text", text: "看图" }, image], timestamp: 5 },
        },
        {
          ...base,
          id: "0000000b",
          parentId: "0000000a",
          type: "message",
          message: { role: "assistant", content: [{ type: "text", text: "好" }], stopReason: "stop", timestamp: 6 },
        },
      ]);
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "--resume", file, "-p", "再看"],
        workspace,
      );
      assert.equal(result.code, 1, result.stderr);
      const failure = result.stderr.split("\n").filter((line) => line.startsWith("模型服务"));
      assert.equal(failure.length, 1, `一行说明：${result.stderr}`);
      assert.match(
        failure[0] as string,
        /^模型服务拒绝了带图片的请求（the server refused a request holding an image \(400 .*换一个支持图片输入的模型/,
      );
      assert.deepEqual(server.requests[0].messages[1].content, [
        { type: "text", text: "看图" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      ]);
    });
  } finally {
    await server.close();
  }
});
