import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { assistantMessage, type Message, text } from "@pi/core";
import { type ContextBudget, keepNewest } from "../src/compaction/budget.js";
import { buildContext, sinceNewestCompaction } from "../src/compaction/context.js";
import { createCompactionEntry } from "../src/compaction/create-entry.js";
import { compactionFiles } from "../src/compaction/files.js";
import { groupInteractions } from "../src/compaction/interactions.js";
import { summaryMessage } from "../src/compaction/render.js";
import { parseCompactionEntry, parseCompactionSummary } from "../src/compaction/summary.js";
import { estimateTokens } from "../src/compaction/tokens.js";
import type { CompactionEntry, SessionEntry } from "../src/session/entries.js";
import { JsonlSessionStore } from "../src/session/jsonl-store.js";
import { InMemorySessionStore } from "../src/session/memory-store.js";
import { parseEntry } from "../src/session/parse-entry.js";
import {
  entryId,
  interaction,
  interactions,
  ourCompaction,
  pairingProblem,
  piCompaction,
  structured,
} from "./compaction-fixture.js";
import { HEADER, label, refusal, withSessionDir } from "./session-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 10_000;

// Chapter 11: a long session past the model's window. Ten interactions, each a question, two
// parallel calls (read and edit) whose results come back in reverse order, and an answer; the
// context is cut to a budget at whole interactions, and compaction entries summarise the rest.

const messagesOf = (entries: readonly SessionEntry[]): Message[] =>
  entries.flatMap((item) => (item.type === "message" ? [item.message] : []));
const tokensOf = (messages: readonly Message[]): number =>
  messages.reduce((sum, message) => sum + estimateTokens(message), 0);
/** A budget of exactly `history` tokens for the history. */
const budgetOf = (history: number): ContextBudget => ({
  contextWindow: history + 1500,
  reserveTokens: 1000,
  systemPromptTokens: 500,
  safetyMarginTokens: 0,
});
const INTERACTION = tokensOf(messagesOf(interaction(1, null)));

// ---------------------------------------------------------------------------
// Lab 11.1 · 严格的压缩条目
// ---------------------------------------------------------------------------

test("压缩条目：parseEntry 收下我们的与 Pi 的 compaction 条目，返回的条目连同结构化摘要都是副本", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const ours = ourCompaction("d0000001", "c0000014", "c0000010");
  const parsed = parseEntry(ours);
  assert.deepEqual(parsed, ours, "我们的条目：summary、firstKeptEntryId、tokensBefore 与 details.structured 原样收下");
  assert.ok(parsed.type === "compaction" && parsed.details?.structured !== undefined, "收窄成 compaction 条目");
  parsed.details.structured.done.push("被调用者改掉");
  parsed.details.readFiles.push("被调用者改掉");
  assert.deepEqual(ours.details?.structured?.done, ["读了 greet.ts"], "结构化摘要是副本：改动它不影响输入");
  assert.deepEqual(ours.details?.readFiles, ["src/a.ts"], "文件清单是副本");
  const direct = parseCompactionEntry(ours as never);
  assert.ok(direct !== ours, "parseCompactionEntry 组装一个新的 CompactionEntry，不返回 entry 本身");
  direct.summary = "被调用者改掉";
  assert.notEqual(ours.summary, "被调用者改掉", "parseCompactionEntry 返回新对象：改动它不影响输入");
  const piInput = piCompaction("d0000003", "c0000014", "c0000010");
  const piDirect = parseCompactionEntry(piInput as never);
  piDirect.details?.readFiles.push("被调用者改掉");
  piDirect.details?.modifiedFiles.push("被调用者改掉");
  direct.details?.readFiles.push("被调用者改掉");
  assert.deepEqual(
    [piInput.details, ours.details?.readFiles],
    [piCompaction("d0000003", "c0000014", "c0000010").details, ["src/a.ts"]],
    "parseCompactionEntry 单独调用（不经 parseEntry 的 copyJson）也收下副本：details 是新对象，readFiles 与 modifiedFiles 是 parseCompactionFiles() 复制的新数组，改动它们不影响输入",
  );

  const pi = piCompaction("d0000002", "c0000014", "c0000010");
  assert.deepEqual(parseEntry(pi), pi, "Pi 的条目：details 只有 readFiles 与 modifiedFiles，summary 是自由文本");
  const hooked = { ...pi, fromHook: true };
  assert.deepEqual(
    parseEntry(hooked),
    hooked,
    "fromHook 检查过也要放进新条目：Pi 用 fromHook: true 标记扩展生成的压缩，逐个字段组装时不能丢掉它",
  );

  const summary = structured();
  const copy = parseCompactionSummary(summary);
  assert.deepEqual(copy, summary, "parseCompactionSummary 收下八个具名字段");
  copy.constraints.push("被调用者改掉");
  assert.deepEqual(summary.constraints, ["只改 greet()"], "parseCompactionSummary 返回副本");
});

test("压缩条目：缺字段、旧格式的字段、未知字段与不是 token 数的数字都是一行错误，点名字段", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const good = ourCompaction("d0000001", "c0000014", "c0000010");
  const { summary: _summary, ...noSummary } = good;
  const { goal: _goal, ...noGoal } = structured();
  const bad: [string, unknown, RegExp][] = [
    ["缺 summary", noSummary, /summary/],
    ["firstKeptEntryId 不是 id", { ...good, firstKeptEntryId: "msg-3" }, /firstKeptEntryId/],
    ["第 1 版的 firstKeptEntryIndex", { ...good, firstKeptEntryIndex: 3 }, /firstKeptEntryIndex/],
    ["未知字段", { ...good, keepRecent: 20000 }, /keepRecent/],
    ["tokensBefore 为负", { ...good, tokensBefore: -1 }, /tokensBefore/],
    ["tokensBefore 不是整数", { ...good, tokensBefore: 1.5 }, /tokensBefore/],
    ["tokensBefore 是字符串", { ...good, tokensBefore: "5000" }, /tokensBefore/],
    ["readFiles 不是数组", { ...good, details: { ...good.details, readFiles: "src/a.ts" } }, /readFiles/],
    [
      "details 有未知字段（details 只认 readFiles、modifiedFiles 与 structured）",
      { ...good, details: { ...good.details, notes: "备注" } },
      /notes/,
    ],
    ["fromHook 不是布尔值（fromHook 没有或是布尔值）", { ...good, fromHook: "yes" }, /fromHook/],
    ["摘要缺 goal", { ...good, details: { ...good.details, structured: noGoal } }, /goal/],
    [
      "摘要的列表里不是字符串",
      { ...good, details: { ...good.details, structured: { ...structured(), done: [1] } } },
      /done/,
    ],
    ["摘要有未知字段", { ...good, details: { ...good.details, structured: { ...structured(), mood: "好" } } }, /mood/],
  ];
  for (const [what, value, field] of bad) {
    assert.match(await refusal(() => parseEntry(value), what), field, `${what}：报错点名这个字段`);
  }
  assert.match(
    await refusal(() => parseCompactionSummary({ ...structured(), nextSteps: undefined }), "缺 nextSteps"),
    /nextSteps/,
    "单独解析摘要时同样点名缺的字段",
  );
});

test("压缩条目：内存存储与 JSONL 存储都能追加 compaction 条目；JSONL 文件重新打开后原样读回", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const history = interactions(1, 3);
  const ours = ourCompaction("d0000001", entryId(3, 4), entryId(3, 0));
  const pi = piCompaction("d0000002", "d0000001", entryId(3, 0));
  const memory = new InMemorySessionStore(HEADER);
  for (const item of [...history, ours, pi]) await memory.append(item);
  assert.deepEqual(memory.entries().slice(-2), [ours, pi], "内存存储收下两种 compaction 条目");

  await withSessionDir(async (dir) => {
    const file = path.join(dir, "long.jsonl");
    const store = await JsonlSessionStore.create(file, HEADER);
    for (const item of [...history, ours, pi]) await store.append(item);
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    assert.deepEqual(JSON.parse(lines.at(-2) ?? ""), ours, "文件里是我们的 compaction 条目这一行");
    const reopened = await JsonlSessionStore.open(file);
    assert.deepEqual(reopened.entries(), [...history, ours, pi], "重新打开后 compaction 条目原样读回");
    assert.deepEqual(reopened.pathTo("d0000002").at(-1), pi, "compaction 条目在树上，可以沿 parentId 走到");
  });
});

// ---------------------------------------------------------------------------
// Lab 11.2 · 把活动路径分成交互
// ---------------------------------------------------------------------------

test("交互分组：groupInteractions 在每条用户消息处切开，调用与结果从不分到两段：每段交互从它的用户消息开始，首尾相接", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const messages = messagesOf(interactions(1, 3));
  assert.deepEqual(
    groupInteractions(messages),
    [
      { start: 0, end: 5 },
      { start: 5, end: 10 },
      { start: 10, end: 15 },
    ],
    "三个问题是三段交互，每段 5 条消息",
  );
  const leading = messagesOf(interactions(1, 2)).slice(1);
  assert.deepEqual(
    groupInteractions(leading),
    [
      { start: 0, end: 4 },
      { start: 4, end: 9 },
    ],
    "第一条用户消息之前的消息自成一段",
  );
  assert.deepEqual(groupInteractions([]), [], "没有消息就没有交互");
});

test("交互分组：一批调用的结果可以任意顺序到达，仍按调用 id 配对；调用与结果留在同一段交互里", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const messages = messagesOf(interaction(1, null));
  const [question, asks, editResult, readResult, done] = messages as [Message, Message, Message, Message, Message];
  assert.deepEqual(
    groupInteractions([question, asks, editResult, readResult, done]),
    [{ start: 0, end: 5 }],
    "先 edit 后 read 的结果",
  );
  assert.deepEqual(
    groupInteractions([question, asks, readResult, editResult, done]),
    [{ start: 0, end: 5 }],
    "先 read 后 edit 的结果",
  );
  const followUp: Message = { role: "user", content: "接着改", timestamp: 99 };
  assert.deepEqual(
    groupInteractions([question, asks, readResult, editResult, followUp]),
    [
      { start: 0, end: 4 },
      { start: 4, end: 5 },
    ],
    "结果属于调用所在的交互，下一条用户消息才开始新的一段",
  );

  // Some providers number the calls of every turn from call_0: the same id in two batches.
  const look = (file: string): Message =>
    assistantMessage([{ type: "toolCall", id: "call_0", name: "read", arguments: { path: file } }], "toolUse");
  const seen = (file: string): Message => ({
    role: "toolResult",
    toolCallId: "call_0",
    toolName: "read",
    content: [text(`${file} 的内容`)],
    isError: false,
    timestamp: 100,
  });
  const reused = [question, look("a.ts"), seen("a.ts"), look("b.ts"), seen("b.ts"), done];
  const grouped = (() => {
    try {
      return groupInteractions(reused);
    } catch (error) {
      return String(error);
    }
  })();
  assert.deepEqual(
    grouped,
    [{ start: 0, end: 6 }],
    "每个 assistant 开始新的一批（open 与 answered 都重新开始）：上一批回答过的 call_0 在下一批里不是重复的结果",
  );
});

test("交互分组：孤立的结果、重复的结果与没有结果的调用各是一行错误，点名调用 id", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const [question, asks, editResult, readResult, done] = messagesOf(interaction(1, null)) as Message[] as [
    Message,
    Message,
    Message,
    Message,
    Message,
  ];
  const orphan = await refusal(() => groupInteractions([question, editResult, done]), "孤立的结果");
  assert.match(orphan, /call-1-edit/, "孤立的结果点名它的调用 id");
  const twice = await refusal(
    () => groupInteractions([question, asks, editResult, editResult, readResult]),
    "重复的结果",
  );
  assert.match(twice, /call-1-edit/, "重复的结果点名调用 id");
  const kind = (message: string) => message.replace(/\d+/g, "N");
  assert.notEqual(
    kind(twice),
    kind(orphan),
    "已被回答过的调用又来一个结果是重复的结果，不是孤立的结果：先查 answered，再查 open，两种错误说法不同",
  );
  const missing = await refusal(() => groupInteractions([question, asks, editResult, done]), "缺结果");
  assert.match(missing, /call-1-read/, "没有结果的调用被点名");
  const atEnd = await refusal(() => groupInteractions([question, asks, readResult]), "结尾缺结果");
  assert.match(atEnd, /call-1-edit/, "消息结束时仍没有结果的调用被点名");
});

// ---------------------------------------------------------------------------
// Lab 11.3 · 预算：从最新往回保留整段交互
// ---------------------------------------------------------------------------

test("上下文预算：窗口先减去系统提示、输出预留与安全余量，再从最新往回保留放得下的整段交互，不拆开调用与结果", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const path = interactions(1, 10);
  const budget = {
    contextWindow: 100_000,
    reserveTokens: 16_384,
    systemPromptTokens: 1_200,
    safetyMarginTokens: 2_000,
  };
  assert.equal(
    buildContext(path, budget).budget,
    100_000 - 16_384 - 1_200 - 2_000,
    "预算 = 窗口 − 输出预留 − 系统提示 − 安全余量",
  );
  assert.equal(
    buildContext(path, { contextWindow: 100_000, reserveTokens: 16_384, systemPromptTokens: 1_200 }).budget,
    100_000 - 16_384 - 1_200 - 5_000,
    "默认的安全余量是窗口的 5%",
  );
  assert.equal(
    buildContext(path, { ...budget, safetyMarginTokens: 0 }).budget,
    100_000 - 16_384 - 1_200,
    "safetyMarginTokens: 0 是给了 0（不留余量），不是没给：只有没给（undefined）时才用默认的窗口 5%",
  );
  assert.equal(
    buildContext(path, { contextWindow: 1_000, reserveTokens: 200, systemPromptTokens: 900 }).budget,
    1_000 - 200 - 900 - 50,
    "窗口放不下系统提示、输出预留与安全余量时，预算如实是负数（可以 ≤ 0，不截成 0）",
  );
  const fields = ["contextWindow", "reserveTokens", "systemPromptTokens", "safetyMarginTokens"] as const;
  for (const [field, value] of fields.flatMap((field) => [-1, 1.5, "100"].map((value) => [field, value] as const))) {
    assert.throws(
      () => buildContext(path, { ...budget, [field]: value } as ContextBudget),
      new RegExp(`预算的 ${field} 是`),
      `每个数先用 tokenCount() 检查：${field} 为 ${JSON.stringify(value)}（不是非负整数）是一行错误，点名 ${field}`,
    );
  }

  const total = tokensOf(messagesOf(path));
  const all = buildContext(path, budgetOf(total));
  assert.deepEqual(all.messages, messagesOf(path), "正好放得下就全部保留");
  assert.equal(all.tokens, total, "tokens 是上下文里消息的 token 数");
  assert.deepEqual([all.dropped, all.overBudget, all.firstKeptEntryId], [[], false, entryId(1, 0)], "什么也没丢");

  const three = buildContext(path, budgetOf(3 * INTERACTION + Math.floor(INTERACTION / 2)));
  assert.deepEqual(three.messages, messagesOf(path.slice(35)), "放得下三段半：只保留最新的三段整段交互");
  assert.deepEqual(three.dropped, messagesOf(path.slice(0, 35)), "dropped 是没放下的更早的交互");
  assert.equal(three.firstKeptEntryId, entryId(8, 0), "firstKeptEntryId 是保留的第一段交互的用户消息");
  assert.ok(three.tokens <= three.budget && !three.overBudget, "保留的部分在预算之内");

  // Sizes oldest first: a big interaction between small ones stops the walk.
  const sizes = [1, 1, 50, 1];
  const asked: number[] = [];
  const kept = keepNewest(
    sizes.length,
    (index) => {
      asked.push(index);
      return sizes[index] ?? 0;
    },
    10,
  );
  assert.deepEqual(
    kept,
    { first: 3, tokens: 1 },
    "第一段放不下的交互就停下：保留的是连续的后缀，不跳过大的去拿更早的小的",
  );
  assert.deepEqual(asked, [3, 2], "只对看过的交互调用 size(i)：停下之后不再看更早的");
  assert.deepEqual(
    keepNewest(2, (index) => [5, 50][index] ?? 0, 10),
    { first: 1, tokens: 50 },
    "最新一段（count − 1）无论多大都保留：它单独就超出 available（50 > 10）时仍返回 { first: count − 1, tokens: 它的大小 }，不是什么也不留",
  );
  const none: number[] = [];
  assert.deepEqual(
    [keepNewest(0, (index) => (none.push(index), 1), 10), none],
    [{ first: 0, tokens: 0 }, []],
    "没有交互就返回 { first: 0, tokens: 0 }，不调用 size(i)",
  );
  assert.deepEqual(
    buildContext([], budgetOf(10)).messages,
    [],
    "空路径的上下文是空的（没有交互就返回 { first: 0, tokens: 0 }）",
  );
});

test("上下文预算 · 整段：预算落在交互中间时也只在整段之间剪切，不拆开调用与结果；最新一段单独超出预算时仍整段保留", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const path = interactions(1, 4);
  for (let history = 0; history <= 4 * INTERACTION + 1; history += 7) {
    const built = buildContext(path, budgetOf(history));
    assert.ok(
      built.messages.length >= 5,
      `预算 ${history}：最新一段交互无论多大都整段保留（即使它单独就超出预算），上下文不会是空的（实际保留了 ${built.messages.length} 条消息）`,
    );
    const first = built.messages[0];
    assert.ok(first?.role === "user", `预算 ${history}：上下文从一条用户消息开始，而不是从一段交互的中间`);
    assert.equal(
      pairingProblem(built.messages),
      undefined,
      `预算 ${history}：每个调用都有结果，每个结果都跟着它的调用`,
    );
    assert.equal(built.messages.length % 5, 0, `预算 ${history}：保留的是整段交互`);
  }
  const tight = buildContext(path, budgetOf(INTERACTION - 1));
  assert.deepEqual(tight.messages, messagesOf(path.slice(15)), "最新一段单独超出预算：仍整段保留");
  assert.equal(tight.overBudget, true, "这时 overBudget 为真");
  assert.equal(tight.tokens, INTERACTION, "tokens 如实报告超出的大小");
});

test("上下文预算：返回的上下文与输入路径不共享引用，改动它不影响路径", { timeout: TEST_TIMEOUT_MS }, () => {
  const path = interactions(1, 2);
  const before = structuredClone(path);
  const built = buildContext(path, budgetOf(10 * INTERACTION));
  const first = built.messages[0];
  assert.ok(first?.role === "user", "第一条是用户消息");
  first.content = "被调用者改掉";
  const asks = built.messages[1];
  assert.ok(asks?.role === "assistant", "第二条是 assistant");
  asks.content.length = 0;
  assert.deepEqual(path, before, "改动上下文不影响路径上的消息");
  assert.deepEqual(
    buildContext(path, budgetOf(10 * INTERACTION)).messages,
    messagesOf(before),
    "重新构建得到原来的消息",
  );
});

// ---------------------------------------------------------------------------
// Lab 11.4 · 生成压缩条目
// ---------------------------------------------------------------------------

test("生成压缩：父条目是路径的最后一条，summary 由结构化字段渲染；追加之后旧字节是精确前缀，历史一条不改", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "long.jsonl");
    const store = await JsonlSessionStore.create(file, HEADER);
    for (const item of interactions(1, 6)) await store.append(item);
    const bytes = await readFile(file, "utf8");
    const branch = store.pathTo(entryId(6, 4));
    const built = buildContext(branch, budgetOf(2 * INTERACTION));
    const files = compactionFiles(undefined, built.dropped);
    const made = createCompactionEntry(
      branch,
      { summary: structured(), firstKeptEntryId: built.firstKeptEntryId ?? "", tokensBefore: 6 * INTERACTION, files },
      "d0000001",
      new Date("2026-12-01T11:00:00.000Z"),
    );
    assert.equal(made.id, "d0000001", "id 给了就用它：只有没给时才用 newEntryId() 取一个路径上没有的");
    assert.equal(
      made.timestamp,
      "2026-12-01T11:00:00.000Z",
      "timestamp 是 now.toISOString()：用传进来的 now（没给才是当前时间），不自己取 new Date()",
    );
    assert.equal(made.parentId, entryId(6, 4), "父条目是路径的最后一条");
    const marked = [...branch, label("d0000002", entryId(6, 4), entryId(5, 0), "压缩之前")];
    const underLabel = createCompactionEntry(
      marked,
      { summary: structured(), firstKeptEntryId: entryId(5, 0), tokensBefore: 6 * INTERACTION, files },
      "d0000003",
    );
    assert.equal(
      underLabel.parentId,
      "d0000002",
      "父条目是路径的最后一条（path.at(-1)），不管它是什么类型：路径以 label 条目结尾时压缩挂在这个 label 下，而不是最后一条消息下（否则 label 掉出新叶的分支）",
    );
    assert.equal(made.firstKeptEntryId, entryId(5, 0), "从保留的第一段交互的用户消息起保留");
    assert.match(made.summary, /把 greet\.ts 的问候改成中文/, "summary 由结构化摘要渲染，含目标");
    assert.match(made.summary, /src\/file-1\.ts/, "summary 列出被总结的部分改过的文件");
    assert.deepEqual(made.details?.structured, structured(), "details.structured 保存结构化摘要");
    assert.deepEqual(
      { readFiles: made.details?.readFiles, modifiedFiles: made.details?.modifiedFiles },
      { readFiles: files.readFiles, modifiedFiles: files.modifiedFiles },
      "details 记下文件清单：readFiles 是读过的，modifiedFiles 是改过的，各放各的，不对调",
    );
    assert.deepEqual(
      files.modifiedFiles,
      ["src/file-1.ts", "src/file-2.ts", "src/file-3.ts", "src/file-4.ts"],
      "改过的文件来自被丢掉的 edit 调用",
    );

    await store.append(made);
    assert.ok((await readFile(file, "utf8")).startsWith(bytes), "压缩只追加：旧字节是新文件的精确前缀");
    assert.deepEqual(store.pathTo(entryId(6, 4)), branch, "原来的分支一条不改");
    assert.deepEqual(
      (await JsonlSessionStore.open(file)).pathTo("d0000001").at(-1),
      made,
      "重新打开后读到这个压缩条目",
    );
  });
});

test("生成压缩：firstKeptEntryId 只接受一段完整交互的第一条消息：落在调用与结果之间、回答或不在分支上的 id 都被拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const branch = interactions(1, 3);
  const fields = (firstKeptEntryId: string) => ({
    summary: structured(),
    firstKeptEntryId,
    tokensBefore: 3 * INTERACTION,
    files: { readFiles: [], modifiedFiles: [] },
  });
  assert.match(
    await refusal(() => createCompactionEntry([], fields(entryId(1, 0))), "空路径"),
    /空/,
    "路径是空的就一行报错（说它是空的）：压缩条目没有父条目，不是去查 firstKeptEntryId",
  );
  assert.equal(
    createCompactionEntry(branch, fields(entryId(2, 0))).firstKeptEntryId,
    entryId(2, 0),
    "交互的第一条消息可以",
  );
  for (const [what, id] of [
    ["带调用的 assistant", entryId(2, 1)],
    ["调用与结果之间", entryId(2, 2)],
    ["一批结果的中间", entryId(2, 3)],
    ["回答", entryId(2, 4)],
    ["不在分支上的 id", "ffffffff"],
  ] as const) {
    const message = await refusal(() => createCompactionEntry(branch, fields(id)), what);
    assert.match(message, new RegExp(id), `${what}：报错点名这个 firstKeptEntryId`);
  }
  await refusal(
    () => createCompactionEntry(branch, { ...fields(entryId(2, 0)), tokensBefore: -3 }),
    "tokensBefore 为负",
  );
  // A path that already has a compaction goes through sinceNewestCompaction(), which is Lab 11.5's:
  // until that lab is done (its "尚未实现", or a sinceNewestCompaction() that does not give the
  // messages after the newest compaction's cut) Lab 11.5's tests name it, and the rule is observed once it is.
  const twice = compactedTwice();
  let since: ReturnType<typeof sinceNewestCompaction> | undefined;
  try {
    since = sinceNewestCompaction(twice);
  } catch {
    return;
  }
  if (since.compaction?.id !== "d0000002" || since.entryIds[0] !== entryId(5, 0)) return;
  const summarised = "更早被总结的部分（最新压缩之前的交互开头）";
  try {
    createCompactionEntry(twice, fields(entryId(3, 0)));
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, new RegExp(entryId(3, 0)), `${summarised}：报错点名这个 firstKeptEntryId`);
    return;
  }
  assert.fail(
    `${summarised}：应当被拒绝，却成功了（只有 sinceNewestCompaction(path) 给出的、最新压缩之后的交互开头才是合法的 firstKeptEntryId：createCompactionEntry 用它给出的 messages 与 entryIds 分组，不是整条路径）`,
  );
});

// ---------------------------------------------------------------------------
// Lab 11.5 · 压缩之后的上下文
// ---------------------------------------------------------------------------

/** Interactions 1–6, a compaction keeping 5–6, then 7–8; and an older compaction (keeping 3–) before it. */
function compactedTwice(): SessionEntry[] {
  const early = interactions(1, 4);
  const older = ourCompaction("d0000001", entryId(4, 4), entryId(3, 0), "较早的摘要");
  const middle = interactions(5, 6, older.id);
  const newest = ourCompaction("d0000002", entryId(6, 4), entryId(5, 0), "最新的摘要");
  return [...early, older, ...middle, newest, ...interactions(7, 8, newest.id)];
}

test("压缩之后：只有路径上最新的压缩算数：上下文是它的摘要加从 firstKeptEntryId 起的后缀，两次构建结果相同", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const path = compactedTwice();
  const newest = path.find((item) => item.id === "d0000002") as CompactionEntry;
  const built = buildContext(path, budgetOf(100 * INTERACTION));
  assert.equal(
    built.compaction?.id,
    newest.id,
    "路径上有两个压缩时只有最新的算数：sinceNewestCompaction() 从路径末尾往回找，遇到的第一个 compaction（d0000002）就是最新的，不是路径上最早的 d0000001",
  );
  assert.deepEqual(built.messages[0], summaryMessage(newest), "第一条是最新压缩的摘要消息");
  assert.match(JSON.stringify(built.messages[0]), /最新的摘要/, "摘要消息带着最新压缩的 summary");
  assert.doesNotMatch(JSON.stringify(built.messages), /较早的摘要/, "更早的压缩不再算数");
  assert.deepEqual(
    built.messages.slice(1),
    messagesOf(path).slice(20),
    "摘要之后是从 firstKeptEntryId（第 5 段）起的全部消息",
  );
  assert.deepEqual([built.compaction, built.firstKeptEntryId], [newest, entryId(5, 0)], "报告最新的压缩与保留的第一条");
  assert.equal(built.tokens, tokensOf(built.messages), "tokens 包括摘要消息");
  assert.deepEqual(buildContext(path, budgetOf(100 * INTERACTION)), built, "两次构建结果相同");

  const broken = [...path, ourCompaction("d0000003", entryId(8, 4), "eeeeeeee")];
  const notOnBranch = await refusal(
    () => buildContext(broken, budgetOf(100 * INTERACTION)),
    "firstKeptEntryId 不在分支上",
  );
  assert.match(notOnBranch, /eeeeeeee/, "firstKeptEntryId 不在分支上时一行报错点名它");
  assert.match(
    notOnBranch,
    /d0000003/,
    "firstKeptEntryId 找不到时，同一行也点名压缩条目（compaction 条目 d0000003 的 firstKeptEntryId eeeeeeee ……）：压缩条目与这个 id 两者都写出",
  );
  const early = interactions(1, 4);
  const older = ourCompaction("d0000001", entryId(4, 4), entryId(3, 0));
  const ahead = ourCompaction("d0000002", entryId(6, 4), entryId(7, 0));
  const pointsAhead = [...early, older, ...interactions(5, 6, older.id), ahead, ...interactions(7, 8, ahead.id)];
  assert.throws(
    () => buildContext(pointsAhead, budgetOf(100 * INTERACTION)),
    new RegExp(entryId(7, 0)),
    "firstKeptEntryId 只在这个压缩之前的位置找：指向压缩之后的条目（它还没被写下时不可能保留它）一行报错点名它",
  );
});

test("压缩之后 · 整段：压缩过的路径可以再压缩：预算仍只在整段交互处剪切，不拆开调用与结果；dropped 是下一次要总结的部分", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const path = compactedTwice();
  const summary = estimateTokens(summaryMessage(path.find((item) => item.id === "d0000002") as CompactionEntry));
  const built = buildContext(path, budgetOf(summary + 2 * INTERACTION + Math.floor(INTERACTION / 2)));
  assert.deepEqual(built.messages.slice(1), messagesOf(path).slice(30), "摘要之后只保留放得下的整段交互（7 与 8）");
  assert.deepEqual(
    built.dropped,
    messagesOf(path).slice(20, 30),
    "dropped 从最新压缩的 firstKeptEntryId 起算，不含更早被总结的部分",
  );
  assert.equal(pairingProblem(built.messages), undefined, "每个调用都配对");

  const again = createCompactionEntry(path, {
    summary: structured("继续"),
    firstKeptEntryId: built.firstKeptEntryId ?? "",
    tokensBefore: built.tokens,
    files: compactionFiles(built.compaction, built.dropped),
  });
  assert.deepEqual(again.details?.modifiedFiles, ["src/b.ts", "src/file-5.ts", "src/file-6.ts"], "文件清单跨压缩累积");
  assert.throws(
    () =>
      createCompactionEntry(path, {
        ...again,
        summary: structured(),
        files: again.details ?? { readFiles: [], modifiedFiles: [] },
        firstKeptEntryId: entryId(3, 0),
      }),
    new RegExp(entryId(3, 0)),
    "再压缩：createCompactionEntry（实践 11.4，create-entry.ts）只认最新压缩之后的交互开头（经 sinceNewestCompaction(path)），不能从最新压缩之前已被总结的部分保留",
  );
  const after = buildContext([...path, again], budgetOf(10 * INTERACTION));
  assert.deepEqual(after.messages[0], summaryMessage(again), "再压缩之后，上下文从新的摘要开始");
  assert.deepEqual(after.messages.slice(1), messagesOf(path).slice(30), "新摘要之后是它保留的整段交互");
  assert.equal(pairingProblem(after.messages), undefined, "再压缩之后每个调用仍配对");
});

test("压缩之后：Pi 写的 compaction（自由文本的 summary、details 只有文件）以同样的方式使用", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const early = interactions(1, 3);
  const pi = piCompaction("d0000001", entryId(3, 4), entryId(3, 0));
  const path = [...early, parseEntry(pi), ...interactions(4, 4, pi.id)];
  const built = buildContext(path, budgetOf(100 * INTERACTION));
  assert.deepEqual(built.messages[0], summaryMessage(pi), "Pi 的 summary 原样成为摘要消息");
  assert.match(JSON.stringify(built.messages[0]), /Translate the greetings/, "摘要消息带着 Pi 的 summary 文本");
  assert.deepEqual(built.messages.slice(1), messagesOf(path).slice(10), "后缀从 Pi 的 firstKeptEntryId 起");
  assert.deepEqual(
    compactionFiles(built.compaction, messagesOf(interactions(4, 4))),
    { readFiles: ["src/greet.ts"], modifiedFiles: ["src/farewell.ts", "src/file-4.ts"] },
    "Pi 的文件清单同样被下一次压缩继承",
  );
});
