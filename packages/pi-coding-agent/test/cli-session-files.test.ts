// The session store and the workspace check in process: what a bad --resume file or --workspace
// gives (the CLI prints these lines and exits 2; cli-usage.test.ts runs one as a real child).
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { newSession, resumeSession } from "../src/cli/session-store.js";
import { requireWorkspace } from "../src/cli/workspace.js";

async function withDir(use: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "tiny-pi-session-"));
  try {
    await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const user = { role: "user" as const, content: "问题", timestamp: 1 };
const answer = { role: "assistant" as const, content: [], stopReason: "stop" as const, timestamp: 2 };
const failed = { role: "assistant" as const, content: [], stopReason: "error" as const, timestamp: 2 };

test("会话文件：模型第一次给出非 error 的回答时才创建，之前的消息一起写入；名字不覆盖已有文件", async () => {
  await withDir(async (dir) => {
    const at = new Date("2026-11-30T16:22:38.123Z");
    const store = newSession(dir, () => at);
    store.append([user, failed]);
    assert.equal(store.file, undefined, "只有失败的回答：什么也不写");
    store.append([answer]);
    assert.equal(store.file, path.join(dir, ".tiny-pi", "sessions", "2026-11-30T16-22-38-123Z.jsonl"));
    const lines = (await readFile(store.file as string, "utf8")).trimEnd().split("\n");
    assert.deepEqual(
      lines.map((line) => JSON.parse(line).stopReason ?? "user"),
      ["user", "error", "stop"],
    );
    const second = newSession(dir, () => at);
    second.append([user, answer]);
    assert.equal(path.basename(second.file as string), "2026-11-30T16-22-38-123Z-2.jsonl");
  });
});

test("--resume 的文件有误：不存在、是目录、某一行不是消息，各一行说明", async () => {
  await withDir(async (dir) => {
    const usage = (file: string, message: RegExp) =>
      assert.throws(() => resumeSession(file), { name: "UsageError", message });
    usage(
      path.join(dir, "gone.jsonl"),
      /^会话文件 .*gone\.jsonl 不存在：请给出 \.tiny-pi\/sessions\/ 里的某个 \.jsonl 文件。$/,
    );
    usage(dir, /是一个目录/);
    const file = path.join(dir, "bad.jsonl");
    await writeFile(file, `${JSON.stringify(user)}\n{"role":"robot","content":[]}\n`);
    usage(file, /^会话文件 .*bad\.jsonl 第 2 行不是一条消息：请给出 tiny-pi 写的会话文件。$/);
    await writeFile(file, "# tiny-pi\n");
    usage(file, /第 1 行不是一条消息/);
  });
});

test("--workspace 有误：不存在、不是目录，各一行说明", async () => {
  await withDir(async (dir) => {
    assert.throws(() => requireWorkspace(path.join(dir, "nope")), {
      name: "UsageError",
      message: /不存在：请用 --workspace 指向一个已有的目录。$/,
    });
    const file = path.join(dir, "README.md");
    await writeFile(file, "# x\n");
    assert.throws(() => requireWorkspace(file), {
      name: "UsageError",
      message: /不是目录：请用 --workspace 指向一个目录。$/,
    });
    assert.doesNotThrow(() => requireWorkspace(dir));
  });
});
