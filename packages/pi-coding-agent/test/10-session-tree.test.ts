import assert from "node:assert/strict";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { MessageEntry, SessionEntry } from "../src/session/entries.js";
import { recoverSession } from "../src/session/jsonl-recovery.js";
import { dropTornTail, JsonlSessionStore } from "../src/session/jsonl-store.js";
import { InMemorySessionStore } from "../src/session/memory-store.js";
import { checkEntry, parseEntry, parseHeader } from "../src/session/parse-entry.js";
import { messagesOnPath } from "../src/session/session-context.js";
import { pathTo } from "../src/session/session-tree.js";
import {
  AT,
  answer,
  calls,
  chapterSession,
  HEADER,
  ids,
  label,
  refusal,
  result,
  sessionText,
  settle,
  user,
  withHeldWrites,
  withSessionDir,
} from "./session-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 10_000;

// Chapter 10: the session tree, in upstream Pi's file format (version 3), on real files in a
// real temp folder. The chapter's session: a question, an edit that went wrong, and a second
// try branched from entry a0000004 in the same file.

// ---------------------------------------------------------------------------
// Lab 10.1 · 沿 parentId 走出分支
// ---------------------------------------------------------------------------

test("分支路径：pathTo 沿 parentId 返回所选分支从根到叶的链（不是文件顺序），返回深拷贝", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const entries = chapterSession();
  assert.deepEqual(
    ids(pathTo(entries, "a000000c")),
    ["a0000001", "a0000002", "a0000003", "a0000004", "a0000009", "a000000a", "a000000b", "a000000c"],
    "重试分支从根走到叶，跳过错误分支的 5–8",
  );
  assert.deepEqual(ids(pathTo(entries, "a0000008")), ids(entries.slice(0, 8)), "错误分支仍然完整可走");
  assert.deepEqual(ids(pathTo(entries, "a0000001")), ["a0000001"], "根自己就是一条链");

  const chain = pathTo(entries, "a000000c");
  const first = chain[0];
  assert.ok(first?.type === "message" && first.message.role === "user", "链的第一条是用户消息");
  first.message.content = "被调用者改掉";
  first.parentId = "ffffffff";
  assert.deepEqual(entries[0], chapterSession()[0], "返回的是深拷贝（copyEntries）：改动它不影响条目");
  assert.deepEqual(pathTo(entries, "a000000c")[0], entries[0], "返回的是深拷贝：改动它不影响条目");
});

const WALKED_TOO_FAR = "沿 parentId 往回走了 1000 步还没停";

/**
 * `entries` whose parentId reads are counted: a walk that never notices it is going round a loop
 * stops with the rule after 1000 steps, instead of growing its chain until the process dies.
 */
function boundedLoop(entries: MessageEntry[]): MessageEntry[] {
  let reads = 0;
  for (const entry of entries) {
    const parentId = entry.parentId;
    Object.defineProperty(entry, "parentId", {
      enumerable: true,
      get() {
        reads += 1;
        if (reads > 1000) {
          throw new Error(
            `分支路径：${WALKED_TOO_FAR}：走回到已经走过的 id 就是 parentId 成环，一行报错点名条目（用一个 Set 记下走过的 id）`,
          );
        }
        return parentId;
      },
    });
  }
  return entries;
}

test("分支路径：只诊断所选分支的祖先链：断掉的兄弟分支不影响它；链上缺父条目、成环或叶不存在时一行报错，点名条目", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const entries = [...chapterSession(), user("b0000001", "ffffffff", "父条目被手工删掉的兄弟分支")];
  const chosenRule =
    "断掉的兄弟分支不影响所选分支：只诊断所选的链，只查从叶沿 parentId 走回根时经过的条目，不预先检查每个条目的父条目";
  let chosen: SessionEntry[] = [];
  try {
    chosen = pathTo(entries, "a000000c");
  } catch (error) {
    assert.fail(`${chosenRule}（实际被拒绝：${(error as Error).message}）`);
  }
  assert.equal(chosen.length, 8, chosenRule);

  const broken = await refusal(() => pathTo(entries, "b0000001"), "缺父条目");
  assert.match(broken, /b0000001/, "缺父条目的报错点名断在哪个条目");
  assert.match(broken, /ffffffff/, "缺父条目的报错点名缺的父 id");

  const loop = boundedLoop([user("c0000001", "c0000002", "甲"), user("c0000002", "c0000001", "乙")]);
  const looped = await refusal(() => pathTo(loop, "c0000001"), "成环");
  assert.ok(!looped.includes(WALKED_TOO_FAR), looped);
  assert.match(looped, /c0000001|c0000002/, "成环的报错点名条目");
  const tail = boundedLoop([
    user("c0000001", "c0000002", "甲"),
    user("c0000002", "c0000001", "乙"),
    user("c0000003", "c0000001", "丙"),
  ]);
  const tailLooped = await refusal(() => pathTo(tail, "c0000003"), "成环");
  assert.ok(
    !tailLooped.includes(WALKED_TOO_FAR),
    `成环不一定经过叶：走回到这次已经走过的任何 id 都是成环，不只是叶的 id。${tailLooped}`,
  );
  assert.match(await refusal(() => pathTo(entries, "dddddddd"), "叶不存在"), /dddddddd/, "不存在的叶被点名");
});

test("分支路径：任何位置的重复 id 都被拒绝，即使重复的条目不在所选分支上", { timeout: TEST_TIMEOUT_MS }, async () => {
  const entries = [...chapterSession(), answer("a0000008", "a0000005", "另一条也叫 a0000008 的条目")];
  assert.equal(pathTo(chapterSession(), "a0000004").length, 4, "没有重复时可以走");
  const message = await refusal(() => pathTo(entries, "a0000004"), "重复 id");
  assert.match(message, /a0000008/, "重复 id 的报错点名这个 id");
});

// ---------------------------------------------------------------------------
// Lab 10.2 · 解析是 fail-closed 的
// ---------------------------------------------------------------------------

test("条目解析：parseEntry 把 unknown 收窄为条目联合，返回的条目连同嵌套载荷都是副本", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const input = calls("a0000002", "a0000001", "call-1");
  const parsed = parseEntry(JSON.parse(JSON.stringify(input)));
  assert.deepEqual(parsed, input, "合法的 message 条目原样解析");

  const raw = structuredClone(input) as unknown as { message: { content: { arguments: { path: string } }[] } };
  const copy = parseEntry(raw);
  const block = raw.message.content[1];
  assert.ok(block, "第二个内容块是工具调用");
  block.arguments.path = "被改掉.ts";
  assert.deepEqual(copy, input, "嵌套载荷是副本：之后改动输入不影响解析结果");

  const named = { type: "session_info", id: "a0000010", parentId: "a000000c", timestamp: AT, name: "问候改中文" };
  assert.deepEqual(parseEntry(named), named, "session_info 条目带名字");
  const marked = label("a0000011", "a0000010", "a0000004", "改之前");
  assert.deepEqual(parseEntry(marked), marked, "label 条目带 targetId 与 label");
  const cleared = { type: "label", id: "a0000012", parentId: "a0000011", timestamp: AT, targetId: "a0000004" };
  const rule = "没有 label 字段的 label 条目是清除书签：label 字段可以没有，有的话才必须是字符串";
  let parsedCleared: unknown;
  try {
    parsedCleared = parseEntry(cleared);
  } catch (error) {
    assert.fail(`${rule}（实际被拒绝：${(error as Error).message}）`);
  }
  assert.deepEqual(parsedCleared, cleared, rule);
  assert.deepEqual(parseHeader(HEADER), HEADER, "第 3 版的会话头");

  const fresh = JSON.parse(JSON.stringify(input)) as unknown;
  assert.ok(
    checkEntry(fresh) === fresh,
    "checkEntry() 不复制，就地检查、返回的就是传进来的对象（复制是 parseEntry() 里 copyJson 的事）",
  );
});

test("条目解析：未知的类型与形状被拒绝，只有一行；后面章节的 branch_summary 被点名，而不是猜", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const base = { id: "a0000020", parentId: "a0000004", timestamp: AT };
  const later = { ...base, type: "branch_summary", fromId: "a0000003", summary: "另一条分支做过的事" };
  assert.match(
    await refusal(() => parseEntry(later), "branch_summary"),
    /branch_summary/,
    "读到 branch_summary 时点名这个类型",
  );
  const unknown = await refusal(() => parseEntry({ ...base, type: "mystery" }), "未知类型");
  assert.match(unknown, /mystery/, "未知类型被点名");
  assert.notEqual(
    (await refusal(() => parseEntry(later), "branch_summary")).replace("branch_summary", "X"),
    unknown.replace("mystery", "X"),
    "后面章节的类型（LATER_ENTRY_TYPES）先查：点名它属于后面的章节，而不是当作未知类型",
  );

  const good = user("a0000021", null, "你好");
  const shapes: [string, unknown][] = [
    ["不是对象", "a0000021"],
    ["id 不是 8 位十六进制", { ...good, id: "msg-1" }],
    ["id 是数字而不是字符串（12345678 不是 8 位十六进制的 id）", { ...good, id: 12345678 }],
    ["缺 parentId", { ...good, parentId: undefined }],
    ["parentId 不是 8 位十六进制 id（parentId 是 null 或同样的 id）", { ...good, parentId: "parent-1" }],
    ["timestamp 不是 ISO 时间", { ...good, timestamp: "昨天" }],
    ["消息角色不认识", { ...good, message: { role: "bashExecution", command: "ls", timestamp: 1 } }],
    [
      "assistant 的 stopReason 不认识",
      {
        ...answer("a0000022", null, "好"),
        message: { role: "assistant", content: [], stopReason: "done", timestamp: 1 },
      },
    ],
    [
      "toolResult 缺 toolCallId",
      { ...result("a0000023", null, "x"), message: { role: "toolResult", content: [], isError: false, timestamp: 1 } },
    ],
    ["session_info 缺 name（session_info 要 name）", { ...base, type: "session_info" }],
    [
      "model_change 缺 modelId（model_change 要 provider 与 modelId）",
      { ...base, type: "model_change", provider: "openai" },
    ],
    [
      "thinking_level_change 缺 thinkingLevel（thinking_level_change 要 thinkingLevel）",
      { ...base, type: "thinking_level_change" },
    ],
  ];
  const messageShapes = new Set(["消息角色不认识", "assistant 的 stopReason 不认识", "toolResult 缺 toolCallId"]);
  for (const [what, value] of shapes) {
    const refused = await refusal(() => parseEntry(value), `${what}的条目被拒绝`);
    if (!messageShapes.has(what)) continue;
    const { id } = value as { id: string };
    assert.ok(
      refused.includes(id),
      `${what}：message 的形状不对时，报错写出条目 id（messageProblem() 的说明前加上“条目 ${id}：”），实际是“${refused}”`,
    );
  }
  assert.match(
    await refusal(() => parseHeader({ ...HEADER, version: 1 }), "旧版本"),
    /1/,
    "不是第 3 版的会话头被拒绝并写出版本",
  );
});

test("条目解析：不是 JSON 安全的值被拒绝：undefined、函数、NaN、Infinity、Date 与循环引用", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const good = calls("a0000030", null, "call-9");
  assert.equal(parseEntry(good).id, "a0000030", "JSON 安全的条目可以解析");
  const withArgument = (value: unknown) => {
    const copy = structuredClone(good) as unknown as { message: { content: { arguments: Record<string, unknown> }[] } };
    const block = copy.message.content[1];
    assert.ok(block, "第二个内容块是工具调用");
    block.arguments.value = value;
    return copy;
  };
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const sparse = [1, 2, 3];
  delete sparse[1];
  const unsafe: [string, unknown][] = [
    ["稀疏数组的空位（也是 undefined）", sparse],
    ["undefined", undefined],
    ["函数", () => 1],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["Date", new Date(0)],
    ["循环引用", cyclic],
  ];
  for (const [what, value] of unsafe) {
    const message = await refusal(() => parseEntry(withArgument(value)), `${what}被拒绝`);
    assert.match(message, /arguments\.value/, `${what}：报错写出不安全值所在的路径`);
    assert.ok(
      message.includes("entry.message.content[1].arguments.value"),
      `${what}：报错写出不安全值所在的路径，数组的元素写成 [i]（路径 \`\${where}[i]\`，例如 entry.message.content[1].arguments.value），实际是“${message}”`,
    );
  }
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { path: "README.md" });
  const rule =
    "原型是 null 的对象（Object.create(null)）也是普通对象：只有原型不是 Object.prototype 或 null 的对象才拒绝";
  let parsedBare: unknown;
  try {
    parsedBare = parseEntry(withArgument(bare));
  } catch (error) {
    assert.fail(`${rule}（实际被拒绝：${(error as Error).message}）`);
  }
  assert.deepEqual(JSON.stringify(parsedBare), JSON.stringify(withArgument({ path: "README.md" })), rule);

  const shared = { path: "README.md" };
  const sharedRule = "共享但不成环的引用不是循环：可以复制，两处都保留（复制完一个对象就把它移出祖先集合）";
  let twice: SessionEntry;
  try {
    twice = parseEntry(withArgument({ first: shared, second: shared }));
  } catch (error) {
    assert.fail(`${sharedRule}（实际被拒绝：${(error as Error).message}）`);
  }
  assert.ok(twice.type === "message", "解析出消息条目");
  assert.deepEqual(
    JSON.parse(JSON.stringify(twice)),
    JSON.parse(JSON.stringify(withArgument({ first: shared, second: shared }))),
    sharedRule,
  );
});

// ---------------------------------------------------------------------------
// Lab 10.3 · 内存里的会话存储
// ---------------------------------------------------------------------------

test("内存存储：append 在调用时做快照，按调用顺序（FIFO）提交，子条目可以紧跟父条目追加、不必等待", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const store = new InMemorySessionStore(HEADER);
  const entries = chapterSession();
  const first = structuredClone(entries[0]) as SessionEntry;
  const pending = [store.append(first), ...entries.slice(1).map((item) => store.append(item))];
  assert.ok(first.type === "message", "第一条是消息条目");
  first.message.content = "调用之后才改的内容";
  await Promise.all(pending);

  assert.deepEqual(ids(store.entries()), ids(entries), "条目按 append 的调用顺序提交");
  assert.deepEqual(store.entries()[0], entries[0], "append 保存调用那一刻的条目：之后的改动不进入存储");
  assert.equal(store.leafId(), "a000000c", "叶是最后追加的条目");
  assert.deepEqual(ids(store.pathTo("a0000008")), ids(entries.slice(0, 8)), "存储的 pathTo 走同一棵树");
});

test("内存存储：缺父条目或重复 id 的追加被拒绝，失败的追加什么也不留下", { timeout: TEST_TIMEOUT_MS }, async () => {
  const store = new InMemorySessionStore(HEADER);
  for (const item of chapterSession().slice(0, 4)) await store.append(item);
  const before = store.entries();

  let appended: unknown;
  try {
    appended = store.append(user("b0000001", "ffffffff", "父条目不存在"));
  } catch {
    appended = "同步抛出";
  }
  assert.ok(appended instanceof Promise, "append 以被拒绝的 Promise 报告错误，而不是同步抛出");
  await (appended as Promise<unknown>).catch(() => undefined);
  assert.equal(
    store.has("b0000001"),
    false,
    "失败的追加什么也不留下：查重复 id 与缺父条目都在 push 之前，被拒的条目不进存储",
  );
  const orphan = await refusal(() => store.append(user("b0000001", "ffffffff", "父条目不存在")), "缺父条目的追加");
  assert.match(orphan, /ffffffff/, "缺父条目的拒绝点名缺的父 id");
  const twice = await refusal(() => store.append(user("a0000003", "a0000004", "重复的 id")), "重复 id 的追加");
  assert.match(twice, /a0000003/, "重复 id 的拒绝点名这个 id");
  await refusal(
    () => store.append({ ...user("b0000002", "a0000004", "x"), type: "compaction" } as never),
    "坏条目的追加",
  );

  assert.deepEqual(store.entries(), before, "失败的追加什么也没有留下");
  assert.equal(store.has("b0000001"), false, "被拒的条目不在存储里");
  assert.equal(store.leafId(), "a0000004", "叶没有移动");
  await store.append(user("a0000005", "a0000004", "之后的追加照常"));
  assert.equal(store.leafId(), "a0000005", "被拒之后存储照常工作");
});

// ---------------------------------------------------------------------------
// Lab 10.4 · 恢复一个 JSONL 文件
// ---------------------------------------------------------------------------

test("JSONL 恢复 · 残行：只有以换行结尾的行才算提交；空行被忽略；最后没有换行的残行被报告、不算数", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const entries = chapterSession().slice(0, 4);
    const committed = `${sessionText(entries.slice(0, 2))}\n   \n${sessionText(entries.slice(2)).replace(/^[^\n]*\n/, "")}`;
    // Cut inside the Chinese words: the torn tail holds multi-byte characters, so bytes ≠ characters.
    const cut = JSON.stringify(answer("a0000005", "a0000004", "写到一半就断了"));
    const torn = cut.slice(0, cut.indexOf("一半") + 1);
    const file = path.join(dir, "crashed.jsonl");
    await writeFile(file, committed + torn);

    const content = await readFile(file, "utf8");
    let recovered: ReturnType<typeof recoverSession>;
    try {
      recovered = recoverSession(content, file);
    } catch (error) {
      const message = (error as Error).message;
      if (/尚未实现$/.test(message)) throw error;
      assert.fail(`空行（包括只有空白的行，"   "）忽略，不当作坏行：恢复却报错了（${message}）`);
    }
    assert.deepEqual(recovered.header, HEADER, "第一行是会话头");
    assert.deepEqual(ids(recovered.entries), ids(entries), "以换行结尾的行都提交了，空行被忽略");
    assert.deepEqual(
      recovered.tornTail,
      { line: 8, bytes: Buffer.byteLength(torn) },
      "残行被报告：它的物理行号与字节数（bytes 按 UTF-8 字节计，不是字符数：残行停在“写到一”，一个汉字 3 个字节）",
    );
    assert.equal(
      recovered.committedBytes,
      Buffer.byteLength(committed),
      "已提交的部分到最后一个换行为止（committedBytes 按 UTF-8 字节计，不是字符数）",
    );

    const readBy: string[] = [];
    const viaRead = recoverSession(committed, file, (value) => {
      readBy.push((value as { id: string }).id);
      return parseEntry(value);
    });
    assert.deepEqual(
      [readBy, ids(viaRead.entries)],
      [ids(entries), ids(entries)],
      "条目用 read（默认 checkEntry()）检查：传进来的 read 读每个已提交的条目（宿主靠它认识后面章节的类型）",
    );

    const whole = recoverSession(committed, file);
    assert.equal(whole.tornTail, undefined, "以换行结尾的文件没有残行");
    const complete = `${JSON.stringify(answer("a0000005", "a0000004", "完整，只差换行"))}`;
    assert.equal(recoverSession(committed + complete, file).entries.length, 4, "差一个换行的完整 JSON 也不算提交");
    const headerRule = "会话头是第一条非空行：文件开头的空行也跳过，第一条非空行用 parseHeader()，之后的用 read()";
    let leading: ReturnType<typeof recoverSession> | undefined;
    try {
      leading = recoverSession(`\n${committed}`, file);
    } catch (error) {
      assert.fail(`${headerRule}（恢复却报错了：${(error as Error).message}）`);
    }
    assert.deepEqual([leading.header, ids(leading.entries)], [HEADER, ids(entries)], headerRule);
  });
});

test("JSONL 恢复：已提交的坏行（不是 JSON，或不合 schema）是一行错误，写出文件与物理行号；恢复从不改写文件", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const entries = chapterSession().slice(0, 3);
    const file = path.join(dir, "damaged.jsonl");
    const cases: [string, string][] = [
      ["不是 JSON", '{"type":"message","id":'],
      ["不合 schema", JSON.stringify({ ...user("a0000004", "a0000003", "x"), type: "compaction" })],
      [
        "数大到双精度装不下（JSON.parse 读成 Infinity）",
        JSON.stringify(user("a0000004", "a0000003", "x")).replace('"timestamp":1}', '"timestamp":1e400}'),
      ],
    ];
    for (const [what, line] of cases) {
      const content = `${sessionText(entries)}\n${line}\n${sessionText([answer("a0000005", "a0000003", "之后")]).split("\n")[1]}\n`;
      await writeFile(file, content);
      const message = await refusal(async () => recoverSession(await readFile(file, "utf8"), file), `${what}的行`);
      assert.match(message, /第 6 行/, `${what}：报错写出物理行号（空行也计数）`);
      assert.ok(message.includes(file), `${what}：报错写出文件`);
      assert.equal(await readFile(file, "utf8"), content, `${what}：文件逐字节不变`);
    }
    await writeFile(file, sessionText(entries).split("\n").slice(1).join("\n"));
    await refusal(async () => recoverSession(await readFile(file, "utf8"), file), "没有会话头的文件");
  });
});

// ---------------------------------------------------------------------------
// Lab 10.5 · JSONL 会话存储
// ---------------------------------------------------------------------------

/** A new session file holding the chapter's first four entries, and its bytes. */
async function fourEntryFile(dir: string) {
  const file = path.join(dir, "session.jsonl");
  const entries = chapterSession();
  const store = await JsonlSessionStore.create(file, HEADER);
  for (const item of entries.slice(0, 4)) await store.append(item);
  return { file, entries, store, before: await readFile(file, "utf8") };
}

test("JSONL 存储：append 让旧字节保持为精确前缀；条目在调用时序列化，由唯一的 FIFO 写入者按调用顺序写入；新实例能重新打开", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // Every appendFile is held until the test lets it go: a second append must not start its write
  // while the first is still running (one FIFO writer, one Promise chain). This check comes first:
  // it is deterministic, while an unchained writer's real writes below land in call order or not
  // as the disk decides, so the rule a learner reads must not depend on that.
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "fifo.jsonl");
    const store = await JsonlSessionStore.create(file, HEADER);
    await withHeldWrites(async (held) => {
      const firstWritten = store.append(user("a0000001", null, "第一条"));
      const secondWritten = store.append(user("a0000002", "a0000001", "第二条"));
      await settle();
      assert.equal(
        held.length,
        1,
        "唯一的 FIFO 写入者：第一条还没写完时第二条不开始写（写入接在 this.writer 这条 Promise 链后面）",
      );
      held[0]?.release();
      await firstWritten;
      await settle();
      assert.equal(held.length, 2, "唯一的 FIFO 写入者：第一条写完后第二条才开始写");
      assert.match(held[1]?.data ?? "", /"a0000002"/, "第二个开始的写入是第二条");
      held[1]?.release();
      await secondWritten;
    });
    assert.deepEqual(
      ids((await JsonlSessionStore.open(file)).entries()),
      ["a0000001", "a0000002"],
      "文件里的条目按调用顺序",
    );
  });
  await withSessionDir(async (dir) => {
    const { file, entries, store, before } = await fourEntryFile(dir);
    assert.equal(before, sessionText(entries.slice(0, 4)), "文件是会话头加每个条目一行");

    const later = entries.slice(4).map((item) => structuredClone(item));
    const pending = later.map((item) => store.append(item));
    for (const item of later) item.timestamp = "2030-01-01T00:00:00.000Z";
    await Promise.all(pending);
    const after = await readFile(file, "utf8");
    assert.ok(after.startsWith(before), "旧字节是新文件的精确前缀");
    assert.equal(after, sessionText(entries), "不等待地连续追加：按调用顺序写入，内容是调用那一刻的条目");

    const readBy: string[] = [];
    const reopened = await JsonlSessionStore.open(file, (value) => {
      readBy.push((value as { id: string }).id);
      return parseEntry(value);
    });
    assert.deepEqual(reopened.entries(), entries, "新实例读出全部条目");
    assert.deepEqual(
      readBy,
      ids(entries),
      "JsonlSessionStore.open(file, read) 把 read 交给 recoverSession()：每个条目都由它读",
    );
    assert.equal(reopened.leafId(), "a000000c", "叶是文件里最后一个条目");
    await refusal(() => reopened.append(user("a0000003", "a0000004", "重复的 id")), "重复 id 的追加");
    assert.equal(
      reopened.writable,
      true,
      "commit() 拒绝的条目（重复 id、缺父条目、坏条目）只让这一次追加 reject、什么也不写：存储不关闭，之后的追加照常（只有写入失败与残行才设 closedBecause）",
    );
    assert.equal(await readFile(file, "utf8"), after, "被拒的追加什么也不写");
    await reopened.append(user("a000000d", "a0000004", "第三次尝试"));
    assert.ok((await readFile(file, "utf8")).startsWith(after), "重新打开后追加，旧字节仍是前缀");
    const third = await JsonlSessionStore.open(file);
    assert.deepEqual(ids(third.pathTo("a000000d")).slice(-2), ["a0000004", "a000000d"], "新分支在同一个文件里");
  });
});

test("JSONL 存储：I/O 失败后写入者永久关闭（fail-closed）：之后的追加全部被拒绝，一行说明点出文件，文件保持原样", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const { file, entries, store, before } = await fourEntryFile(dir);

    // The file is moved away and a directory takes its place: the next write fails for real.
    await rename(file, `${file}.moved`);
    await mkdir(file);
    const failed = store.append(entries[4] as SessionEntry);
    const queued = store.append(entries[5] as SessionEntry);
    const failure = await refusal(() => failed, "写入失败");
    assert.ok(failure.includes(file), "写入失败的说明点出会话文件");
    assert.equal(
      await refusal(() => queued, "排在失败之后的追加"),
      failure,
      "写入失败以一行说明（writeFailureReason()：文件与错误码）reject，之后排队的追加都以同一行 reject",
    );
    await rm(file, { recursive: true });
    await rename(`${file}.moved`, file);

    const leafBefore = store.leafId();
    const idsBefore = ids(store.entries());
    const late = store.append(entries[6] as SessionEntry);
    await refusal(() => late, "文件恢复之后的追加");
    const closedRule =
      "closedBecause 有值时立即 reject，在 commit 之前：存储关闭之后被拒的追加什么也不留下（has(id) 仍是 false，leafId() 与 entries() 不变）";
    assert.equal(store.has((entries[6] as SessionEntry).id), false, closedRule);
    assert.equal(store.leafId(), leafBefore, closedRule);
    assert.deepEqual(ids(store.entries()), idsBefore, closedRule);
    await assert.doesNotReject(
      store.flushed(),
      "flushed() 在写入失败之后照样 resolve（每个追加“写完或失败”就算）：this.writer 换成吞掉错误的那个 Promise（written.catch(() => undefined)），失败只由各个追加自己 reject",
    );
    const reasons: unknown[] = [];
    for (const [what, append] of [
      ["写入失败", failed],
      ["排在失败之后的追加", queued],
      ["文件恢复之后的追加", late],
    ] as const) {
      const reason = await append.then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(
        reason instanceof Error && reason.message === failure,
        `${what}：以 new Error(closedBecause) reject，一个 Error，消息就是那一行说明（不是裸字符串）`,
      );
      reasons.push(reason);
    }
    assert.notEqual(
      reasons[1],
      reasons[0],
      "排在失败之后的追加轮到时以它自己的 new Error(closedBecause) reject（每次一个新的 Error），不是顺着 this.writer 传下来的前一个追加的错误",
    );
    assert.equal(store.writable, false, "失败之后存储不再可写");
    assert.equal(await readFile(file, "utf8"), before, "失败之后没有写入任何字节");
    assert.deepEqual(
      ids((await JsonlSessionStore.open(file)).entries()),
      ids(entries.slice(0, 4)),
      "重新打开读出已提交的条目",
    );
    // A second file: the queued append's turn comes after a failed write; it is refused without writing.
    await mkdir(path.join(dir, "again"));
    const again = await fourEntryFile(path.join(dir, "again"));
    await withHeldWrites(async (held) => {
      const failed = again.store.append(again.entries[4] as SessionEntry);
      const queued = again.store.append(again.entries[5] as SessionEntry);
      failed.catch(() => undefined);
      queued.catch(() => undefined);
      await settle();
      assert.equal(held.length, 1, "唯一的 FIFO 写入者：第一条还没写完时第二条不开始写");
      // The first write fails for real (a directory where the file was); held writes show whether the queued one starts.
      await rename(again.file, `${again.file}.moved`);
      await mkdir(again.file);
      held[0]?.release();
      await refusal(() => failed, "写入失败");
      await settle();
      assert.equal(
        held.length,
        1,
        "失败就永久关闭：排在失败之后的追加轮到时看到 closedBecause 就 reject，不再去写（问题后来消失了也一样）",
      );
      await refusal(() => queued, "排在失败之后的追加");
    });
  });

  await withSessionDir(async (dir) => {
    const { file, entries, store } = await fourEntryFile(dir);
    await rm(file);
    const rule = "追加的文件如果被删掉，O_APPEND 不带 O_CREAT：写入失败，而不是悄悄新建一个没有会话头的文件";
    await refusal(() => store.append(entries[4] as SessionEntry), rule);
    await assert.rejects(readFile(file, "utf8"), `${rule}（文件又出现了）`);
  });
});

test("JSONL 存储 · 残行：最后一行没写完的文件以只读方式打开：已提交的条目都在，追加被拒绝，新条目绝不接在残行上", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "crashed.jsonl");
    const entries = chapterSession().slice(0, 4);
    const torn = JSON.stringify(user("a0000005", "a0000004", "写到一半")).slice(0, 30);
    await writeFile(file, sessionText(entries) + torn);

    const store = await JsonlSessionStore.open(file);
    assert.deepEqual(store.entries(), entries, "已提交的条目都在");
    const refused = await refusal(() => store.append(user("a0000006", "a0000004", "新条目")), "残行之后的追加");
    assert.match(refused, /第 6 行/, "拒绝写出残行的行号");
    assert.equal(await readFile(file, "utf8"), sessionText(entries) + torn, "文件逐字节不变：新条目没有接在残行上");
    const closedRule =
      "closedBecause 有值时立即 reject，在 commit 之前：存储关闭之后被拒的追加什么也不留下（has(id) 仍是 false，leafId() 与 entries() 不变）";
    assert.equal(store.has("a0000006"), false, closedRule);
    assert.equal(store.leafId(), "a0000004", closedRule);
    assert.deepEqual(ids(store.entries()), ids(entries), closedRule);

    assert.equal(await dropTornTail(file), true, "显式修复截掉未提交的残行");
    const repaired = await JsonlSessionStore.open(file);
    await repaired.append(user("a0000006", "a0000004", "新条目"));
    assert.equal(
      await readFile(file, "utf8"),
      sessionText([...entries, user("a0000006", "a0000004", "新条目")]),
      "修复之后，新条目自成一行",
    );
  });
});

// ---------------------------------------------------------------------------
// Lab 10.6 · 把活动分支投影成消息
// ---------------------------------------------------------------------------

test("消息投影：messagesOnPath 把所选分支投影为 Agent 要的 Message[]：只有这条分支的消息，label 与 session_info 不进入，和存储不共享引用", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const store = new InMemorySessionStore(HEADER);
  for (const item of chapterSession()) await store.append(item);
  await store.append(label("a000000d", "a000000c", "a0000004", "改之前"));

  const messages = store.messagesOnPath("a000000d");
  const expected = store.pathTo("a000000c").flatMap((item) => (item.type === "message" ? [item.message] : []));
  const resultIds = messages.flatMap((message) => (message.role === "toolResult" ? [message.toolCallId] : []));
  assert.deepEqual(
    resultIds,
    [...new Set(resultIds)],
    "回答了就把那个调用从这一批里去掉：已有结果的调用不再补一条 aborted 结果（每个调用恰好一个结果）",
  );
  assert.deepEqual(messages, expected, "重试分支的 8 条消息，按根到叶的顺序，label 不进入");
  assert.equal(messages.length, 8, "错误分支的消息不在其中");
  const first = messages[0];
  assert.ok(first?.role === "user", "投影的第一条是用户消息");
  first.content = "被 Agent 改掉";
  assert.deepEqual(store.messagesOnPath("a000000c")[0], expected[0], "消息是副本：改动它不影响存储");
  assert.deepEqual(
    messagesOnPath(chapterSession(), "a0000008").at(-1),
    (chapterSession()[7] as MessageEntry).message,
    "也能投影错误分支",
  );
});

test("消息投影：每个工具调用都配对：分支停在调用与结果之间时，缺的结果补成 aborted；不属于前一批调用的结果一行报错", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const entries = [
    ...chapterSession().slice(0, 4),
    user("a0000005", "a0000004", "同时改两个文件。"),
    calls("a0000006", "a0000005", "call-2", "call-3"),
    result("a0000007", "a0000006", "call-2"),
    user("a0000008", "a0000007", "继续。"),
  ];
  const messages = messagesOnPath(entries, "a0000008");
  const shape = messages.map((message) =>
    message.role === "toolResult"
      ? `toolResult(${message.toolCallId}${message.isError ? ", aborted" : ""})`
      : message.role,
  );
  assert.deepEqual(
    shape,
    [
      "user",
      "assistant",
      "toolResult(call-1)",
      "assistant",
      "user",
      "assistant",
      "toolResult(call-2)",
      "toolResult(call-3, aborted)",
      "user",
    ],
    "缺的结果补在这一批的结果之后、下一条消息之前",
  );
  const atCall = messagesOnPath(entries, "a0000006").map((message) => message.role);
  assert.deepEqual(atCall.slice(-3), ["assistant", "toolResult", "toolResult"], "叶停在调用本身时，两个调用都补上结果");
  assert.deepEqual(
    messagesOnPath(entries, "a0000006").flatMap((message) =>
      message.role === "toolResult" ? [message.toolCallId] : [],
    ),
    ["call-1", "call-2", "call-3"],
    "还没回答的调用按声明顺序各补一条：先 call-2 再 call-3",
  );

  const answeredBy = [
    ...entries.slice(0, 7),
    answer("a0000008", "a0000007", "先到这里。"),
    user("a0000009", "a0000008", "继续。"),
  ];
  const shapeAtAnswer = messagesOnPath(answeredBy, "a0000009").map((message) =>
    message.role === "toolResult" ? `toolResult(${message.toolCallId})` : message.role,
  );
  assert.deepEqual(
    shapeAtAnswer.slice(-5),
    ["assistant", "toolResult(call-2)", "toolResult(call-3)", "assistant", "user"],
    "下一条 assistant（不只是 user）到来时也先补齐这一批：aborted 结果在这条 assistant 之前",
  );

  const otherCall = [...entries.slice(0, 7), result("a0000008", "a0000007", "call-9")];
  assert.match(
    await refusal(
      () => messagesOnPath(otherCall, "a0000008"),
      "toolResult 必须回答这一批里还没回答的某个调用：call-9 的结果不回答这一批（call-2、call-3）",
    ),
    /a0000008/,
    "toolResult 必须回答这一批里还没回答的某个调用：call-9 不在这一批里，一行报错点名它的条目",
  );
  const again = [...entries.slice(0, 7), result("a0000008", "a0000007", "call-2")];
  assert.match(
    await refusal(
      () => messagesOnPath(again, "a0000008"),
      "toolResult 必须回答这一批里还没回答的某个调用：call-2 已经回答过，第二个结果",
    ),
    /a0000008/,
    "回答过的调用已从这一批里去掉：同一个调用的第二个结果一行报错点名它的条目",
  );

  const stray = [...chapterSession().slice(0, 4), result("a0000005", "a0000004", "call-9")];
  assert.match(
    await refusal(() => messagesOnPath(stray, "a0000005"), "没有调用的结果"),
    /a0000005/,
    "没有对应调用的结果点名它的条目",
  );
});
