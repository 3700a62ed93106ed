// tiny-pi's session files on chapter 10's session tree, in process: when a new session's file
// appears, what a bad --resume or --fork file gives (one line naming the file, the file untouched),
// and the workspace check. course/cli-session-tree.test.ts runs the same through the real CLI.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Message } from "@pi/core";
import { requireWorkspace } from "../src/cli/workspace.js";
import { forkSession, type HostSession, newSession, resumeSession } from "../src/host/session-store.js";
import { messageEntry } from "../src/session/entries.js";
import { writeSession } from "./cli-support/run-cli.js";

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

/** Appends `messages` as the Runtime does: one entry at a time under the store's leaf, each awaited. */
async function appendMessages(session: HostSession, messages: Message[], leaf = session.store.leafId()): Promise<void> {
  let at = leaf;
  for (const message of messages) {
    const entry = messageEntry(message, at);
    await session.store.append(entry);
    at = entry.id;
  }
}

/** The messages on the session's branch at its opening leaf. */
const history = (session: HostSession) =>
  session.leaf === undefined ? [] : session.store.messagesOnPath(session.leaf);

function lines(text: string): { type: string; id?: string; parentId?: string | null; message?: { role: string } }[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

test("会话文件：模型第一次给出非 error 的回答时才创建；之前的消息一起写入，作为一条 parentId 链；名字不覆盖已有文件", async () => {
  await withDir(async (dir) => {
    const at = new Date("2026-11-30T16:22:38.123Z");
    const store = newSession(dir, () => at);
    await appendMessages(store, [user, failed]);
    assert.equal(store.file(), undefined, "只有失败的回答：什么也不写");
    await appendMessages(store, [answer]);
    assert.equal(store.file(), path.join(dir, ".tiny-pi", "sessions", "2026-11-30T16-22-38-123Z.jsonl"));
    const [header, ...entries] = lines(await readFile(store.file() as string, "utf8"));
    assert.deepEqual([header?.type, (header as { version?: number }).version], ["session", 3], "第一行是第 3 版会话头");
    assert.deepEqual(
      entries.map((entry) => entry.message?.role),
      ["user", "assistant", "assistant"],
    );
    assert.deepEqual(
      entries.map((entry) => entry.parentId),
      [null, entries[0]?.id, entries[1]?.id],
      "每条消息挂在前一条下面",
    );
    const second = newSession(dir, () => at);
    await appendMessages(second, [user, answer]);
    assert.equal(path.basename(second.file() as string), "2026-11-30T16-22-38-123Z-2.jsonl");
  });
});

test("会话文件夹不可写：一行说明写出会话文件与错误码，运行照常，什么也没有留下", async () => {
  await withDir(async (dir) => {
    await mkdir(path.join(dir, ".tiny-pi"));
    await writeFile(path.join(dir, ".tiny-pi", "sessions"), "不是目录\n");
    const store = newSession(dir, () => new Date("2026-11-30T16:22:38.123Z"));
    const failure = await appendMessages(store, [user, answer]).then(
      () => assert.fail("保存失败被报告"),
      (error: Error) => error.message,
    );
    assert.match(failure, /2026-11-30T16-22-38-123Z\.jsonl/, "写出会话文件");
    assert.match(failure, /E[A-Z]+/, "写出错误码");
    assert.equal(failure.split("\n").length, 1, "只有一行");
    assert.equal(store.file(), undefined, "没有会话文件");
    assert.equal(await readFile(path.join(dir, ".tiny-pi", "sessions"), "utf8"), "不是目录\n", "挡路的文件不变");
  });
});

test("--resume 的文件有误：不存在、是目录、早期的线性格式、提交了的坏行、后面章节的条目、没写完的残行，各一行说明，文件逐字节不变", async () => {
  await withDir(async (dir) => {
    const refused = async (file: string, message: RegExp) => {
      const before = await readFile(file, "utf8").catch(() => undefined);
      await assert.rejects(resumeSession(file), (error: Error) => {
        assert.equal(error.name, "UsageError");
        assert.match(error.message, message);
        assert.equal(error.message.split("\n").length, 1, "只有一行");
        return true;
      });
      if (before !== undefined) assert.equal(await readFile(file, "utf8"), before, `${file} 逐字节不变`);
    };
    await refused(
      path.join(dir, "gone.jsonl"),
      /^会话文件 .*gone\.jsonl 不存在：请给出 \.tiny-pi\/sessions\/ 里的某个 \.jsonl 文件。$/,
    );
    await refused(dir, /是一个目录/);

    const linear = path.join(dir, "linear.jsonl");
    await writeFile(linear, `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`);
    await refused(linear, /早期 tiny-pi 的线性格式.*--fork .*linear\.jsonl/);

    const file = path.join(dir, "bad.jsonl");
    const ids = await writeSession(file, [user, answer]);
    const good = await readFile(file, "utf8");
    await writeFile(file, `${good}{"type":"message","id":\n`);
    await refused(file, /bad\.jsonl 第 4 行不是合法的 JSON/);
    const compaction = { type: "compaction", id: "0000000a", parentId: ids[1], timestamp: "2026-12-01T10:00:00.000Z" };
    await writeFile(file, `${good}${JSON.stringify(compaction)}\n`);
    await refused(file, /第 4 行.*compaction/);
    await writeFile(file, `${good}{"type":"message","id":"0000`);
    await refused(file, /第 4 行没有写完.*--fork .*bad\.jsonl/);
  });
});

test("--resume --leaf：从较早的条目继续，历史是那条分支；不在会话里的 id 一行说明", async () => {
  await withDir(async (dir) => {
    const file = path.join(dir, "s.jsonl");
    const ids = await writeSession(file, [user, answer, { ...user, content: "第二个问题" }, answer]);
    const session = await resumeSession(file, ids[1]);
    assert.deepEqual(history(session), [user, answer], "历史停在所选的条目");
    await appendMessages(session, [{ ...user, content: "换个问法" }], session.leaf);
    const entries = lines(await readFile(file, "utf8")).slice(1);
    assert.equal(entries.at(-1)?.parentId, ids[1], "新条目挂在所选的条目下面：同一个文件里的新分支");
    await assert.rejects(resumeSession(file, "deadbeef"), { name: "UsageError", message: /--leaf deadbeef 不在会话/ });
  });
});

test("--fork：新文件的会话头记下原文件，复制从根到叶的分支（id 不变），原文件不变；线性文件由它转成第 3 版", async () => {
  await withDir(async (dir) => {
    const file = path.join(dir, "s.jsonl");
    const ids = await writeSession(file, [user, answer, { ...user, content: "第二个问题" }, answer]);
    const before = await readFile(file, "utf8");
    const forked = await forkSession(file, dir, ids[1], () => new Date("2026-12-01T11:00:00.000Z"));
    assert.deepEqual(history(forked), [user, answer]);
    const copy = lines(await readFile(forked.file() as string, "utf8"));
    assert.equal((copy[0] as { parentSession?: string }).parentSession, file, "会话头记下原文件");
    assert.deepEqual(
      copy.slice(1).map((entry) => entry.id),
      ids.slice(0, 2),
      "复制的是所选分支，id 不变",
    );
    assert.equal(await readFile(file, "utf8"), before, "原文件不变");

    const linear = path.join(dir, "linear.jsonl");
    await writeFile(linear, `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`);
    const converted = await forkSession(linear, dir, undefined, () => new Date("2026-12-01T11:00:01.000Z"));
    assert.deepEqual(history(converted), [user, answer], "线性文件的消息成为一条链");
    const resumed = await resumeSession(converted.file() as string);
    assert.deepEqual(history(resumed), [user, answer], "转出的文件可以 --resume");
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
