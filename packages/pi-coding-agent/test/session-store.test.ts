// The session store beyond the chapter's focused tests: a writer killed with SIGKILL mid-append,
// a file holding an entry type of a later chapter, Pi's own file format, and the edges of
// parsing and pairing.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { newEntryId, newHeader } from "../src/session/entries.js";
import { dropTornTail, JsonlSessionStore } from "../src/session/jsonl-store.js";
import { checkEntry, copyJson, parseEntry } from "../src/session/parse-entry.js";
import { HANG_GUARD_MS } from "./hang-guard.js";
import { chapterSession, HEADER, ids, refusal, sessionText, user, withSessionDir } from "./session-fixture.js";

const FIXTURES = new URL("../../test/fixtures/", import.meta.url);
const STORE_MODULE = new URL("../src/session/jsonl-store.js", import.meta.url).href;
const ENTRIES_MODULE = new URL("../src/session/entries.js", import.meta.url).href;

/**
 * A child that appends to `file` until it is killed, alternating small entries and entries
 * large enough (8 MB) that Node writes them in many chunks, and reports each committed
 * append on stdout.
 */
function startWriter(file: string) {
  const script = `
    import { JsonlSessionStore } from ${JSON.stringify(STORE_MODULE)};
    import { newHeader, messageEntry } from ${JSON.stringify(ENTRIES_MODULE)};
    const store = await JsonlSessionStore.create(${JSON.stringify(file)}, newHeader("/work"));
    let parent = null;
    for (let n = 0; ; n += 1) {
      const words = n % 3 === 2 ? "x".repeat(8_000_000) : "entry " + n;
      const entry = messageEntry({ role: "user", content: words, timestamp: n }, parent);
      const written = store.append(entry);
      if (words.length > 100) process.stdout.write("writing\\n");
      await written;
      parent = entry.id;
      process.stdout.write(entry.id + "\\n");
    }
  `;
  return spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
}

test("被 SIGKILL 打断的写入者：重新打开时每个报告过已提交的条目都在，且按追加顺序成链；残行只让文件只读，修复后可以继续追加", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "killed.jsonl");
    const child = startWriter(file);
    const reported: string[] = [];
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    let buffered = "";
    let killing: Promise<void> | undefined;
    // Killed as soon as the second large entry's first bytes reach the file: most runs cut it mid-write.
    const killOnceGrown = async (committed: number) => {
      while (child.exitCode === null && statSync(file).size <= committed)
        await new Promise((resolve) => setImmediate(resolve));
      child.kill("SIGKILL");
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (line !== "writing") reported.push(line);
        else if (reported.length >= 4 && !killing) killing = killOnceGrown(statSync(file).size);
      }
    });
    assert.equal(await exited, "SIGKILL", "写入者被 SIGKILL 结束");

    const store = await JsonlSessionStore.open(file);
    const recovered = ids(store.entries());
    assert.deepEqual(recovered.slice(0, reported.length), reported, "每个报告过的条目都在，顺序不变");
    assert.ok(recovered.length <= reported.length + 1, "最多多出一个写完了却没来得及报告的条目");
    const leaf = store.leafId();
    assert.ok(leaf !== null);
    assert.equal(store.pathTo(leaf).length, recovered.length, "所有条目连成一条链");
    if (!store.writable) {
      assert.equal(await dropTornTail(file), true, "只读的原因是残行");
    }
    const reopened = await JsonlSessionStore.open(file);
    await reopened.append(user(newEntryId(), leaf, "继续"));
    assert.equal((await JsonlSessionStore.open(file)).entries().length, recovered.length + 1, "之后的追加自成一行");
  });
});

test("文件里有后面章节的条目类型（branch_summary）：打开时一行报错，写出文件、行号和类型，文件不变", async () => {
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "later.jsonl");
    const later = {
      type: "branch_summary",
      id: "a0000005",
      parentId: "a0000004",
      timestamp: HEADER.timestamp,
      fromId: "a0000003",
      summary: "另一条分支做过的事",
    };
    const content = `${sessionText(chapterSession().slice(0, 4))}${JSON.stringify(later)}\n`;
    await writeFile(file, content);
    const message = await refusal(() => JsonlSessionStore.open(file), "branch_summary");
    assert.ok(message.includes(file), "报错写出文件");
    assert.match(message, /第 6 行/, "报错写出行号");
    assert.match(message, /branch_summary/, "报错写出条目类型");
    assert.equal(await readFile(file, "utf8"), content, "文件逐字节不变");
  });
});

test("按 Pi 的 docs/session.md 写成的第 3 版会话文件（model_change、thinking_level_change、Pi 的 usage、label、session_info、同一文件里的分支）可以打开并投影", async () => {
  const file = fileURLToPath(new URL("pi-v3-session.jsonl", FIXTURES));
  const before = readFileSync(file, "utf8");
  const store = await JsonlSessionStore.open(file);
  assert.equal(store.writable, true, "以换行结尾的 Pi 文件可以继续追加");
  assert.equal(store.leafId(), "0fd4b7e9", "叶是文件里最后一个条目");
  assert.deepEqual(
    store.messagesOnPath("d6a3e15c").map((message) => message.role),
    ["user", "assistant", "toolResult", "assistant"],
    "session_info 所在的分支投影成四条消息",
  );
  assert.deepEqual(
    store.messagesOnPath("0fd4b7e9").map((message) => message.role),
    ["user", "assistant"],
    "从第一个问题分出的另一个分支",
  );
  const answer = store.messagesOnPath("e2b85d03").at(-1);
  assert.ok(answer?.role === "assistant" && answer.usage?.input === 880, "Pi 的 usage 保留下来");
  assert.equal(readFileSync(file, "utf8"), before, "打开不改写文件");
});

test("Pi 的消息里我们不能运行的内容块（thinking）与角色（bashExecution）被点名", async () => {
  const thinking = {
    ...chapterSession()[3],
    message: { role: "assistant", content: [{ type: "thinking", thinking: "…" }], stopReason: "stop", timestamp: 1 },
  };
  assert.match(await refusal(() => parseEntry(thinking), "thinking"), /thinking/);
  const bash = { ...chapterSession()[0], message: { role: "bashExecution", command: "ls", timestamp: 1 } };
  assert.match(await refusal(() => parseEntry(bash), "bashExecution"), /bashExecution/);
});

test("copyJson：共享但不成环的引用可以复制；稀疏数组的空位是 undefined，被拒绝", async () => {
  const shared = { text: "同一个对象" };
  assert.deepEqual(copyJson({ a: shared, b: shared }, "value"), { a: shared, b: shared });
  // biome-ignore lint/suspicious/noSparseArray: the hole is what the test is about.
  assert.match(await refusal(() => copyJson([1, , 3], "value"), "稀疏数组"), /value\[1\]/);
});

test("checkEntry 就地收窄 JSON.parse 刚做出的值，返回的就是它；parseEntry 仍返回副本；两者拒绝同样的坏条目", async () => {
  const line = JSON.stringify(chapterSession()[3]);
  const fresh = JSON.parse(line);
  assert.equal(checkEntry(fresh), fresh, "checkEntry 不复制：返回传进来的对象");
  const copy = parseEntry(fresh);
  assert.notEqual(copy, fresh, "parseEntry 返回副本");
  assert.deepEqual(copy, fresh, "副本与原值相同");
  const bad = { ...fresh, id: "msg-1" };
  assert.equal(await refusal(() => checkEntry(bad), "坏 id"), await refusal(() => parseEntry(bad), "坏 id"));
  const huge = JSON.parse(line.replace(/"timestamp":(\d+)\}/, '"timestamp":1e400}'));
  assert.match(await refusal(() => checkEntry(huge), "1e400"), /entry\.message\.timestamp 是 Infinity/);
});

test("create 不覆盖已有的文件；新会话头是第 3 版，带 parentSession 时写出它", async () => {
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "taken.jsonl");
    await writeFile(file, "learner's bytes\n");
    await assert.rejects(JsonlSessionStore.create(file, HEADER), { code: "EEXIST" });
    assert.equal(await readFile(file, "utf8"), "learner's bytes\n", "已有的文件不变");
    const forked = newHeader("/work", "/work/.tiny-pi/sessions/old.jsonl");
    assert.equal(forked.version, 3);
    assert.equal(forked.parentSession, "/work/.tiny-pi/sessions/old.jsonl");
  });
});
