// Checkpoint 11 · 学习脚手架：摘要的类型 CompactionSummary、CompactionFiles，字段清单，isObject()、onlyKnown()、
// stringList() 与 parseCompactionFiles() 已经写好；parseEntry() 遇到 compaction 条目时调用这里的
// parseCompactionEntry()。Lab 11.1 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 11.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="压缩条目" packages/pi-coding-agent/dist/test/11-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import { type CompactionEntry, type CompactionFiles, type CompactionSummary, ENTRY_ID } from "../session/entries.js";

// The summary's types are part of the compaction entry, so they are declared with it (session/entries.ts
// importing them from here would make the two files import each other); compaction code imports them from here.
export type { CompactionFiles, CompactionSummary };

type Json = Record<string, unknown>;

const LIST_FIELDS = [
  "constraints",
  "done",
  "inProgress",
  "blocked",
  "decisions",
  "nextSteps",
  "criticalContext",
] as const;

const SUMMARY_FIELDS: ReadonlySet<string> = new Set(["goal", ...LIST_FIELDS]);
const ENTRY_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "id",
  "parentId",
  "timestamp",
  "summary",
  "firstKeptEntryId",
  "tokensBefore",
  "details",
  "fromHook",
]);
const DETAILS_FIELDS: ReadonlySet<string> = new Set(["readFiles", "modifiedFiles", "structured"]);
/** Fields of older session formats: version 1 cut by position, which a tree cannot do. */
const OLD_FIELDS: Readonly<Record<string, string>> = {
  firstKeptEntryIndex: "第 1 版按位置剪切，第 3 版用 firstKeptEntryId",
};

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function onlyKnown(value: Json, known: ReadonlySet<string>, where: string): void {
  for (const key of Object.keys(value)) {
    const old = OLD_FIELDS[key];
    if (old !== undefined) throw new Error(`${where} 有旧格式的字段 ${key}（${old}）`);
    if (!known.has(key)) throw new Error(`${where} 有未知的字段 ${key}`);
  }
}

function stringList(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) throw new Error(`${where} 不是字符串数组`);
  return value.map((item, index) => {
    if (typeof item !== "string") throw new Error(`${where}[${index}] 不是字符串`);
    return item;
  });
}

/** `value` as a structured summary (a fresh copy), or one line naming the field that is wrong. */
export function parseCompactionSummary(value: unknown, where = "摘要"): CompactionSummary {
  // Lab 11.1 ①：value 必须是对象；onlyKnown(value, SUMMARY_FIELDS, where) 拒绝旧格式与未知的字段（一行点名）。
  // goal 必须是字符串；LIST_FIELDS 的每个字段用 stringList() 复制成新的字符串数组（错误写出 where 与字段名）。
  // 返回新对象：调用者改动它不影响 value。
  throw new Error("Lab 11.1 严格的压缩条目 尚未实现");
}

/** The files of `details` (a fresh copy), or one line naming the field that is wrong. */
export function parseCompactionFiles(value: unknown, where: string): CompactionFiles {
  if (!isObject(value)) throw new Error(`${where} 不是对象`);
  return {
    readFiles: stringList(value.readFiles, `${where}.readFiles`),
    modifiedFiles: stringList(value.modifiedFiles, `${where}.modifiedFiles`),
  };
}

/**
 * The fields of a `compaction` entry whose id, parentId and timestamp `parseEntry` has checked:
 * a fresh CompactionEntry, or one line naming the entry and the field.
 */
export function parseCompactionEntry(entry: Json): CompactionEntry {
  // Lab 11.1 ②：where 写成 `compaction 条目 ${entry.id}`；先 onlyKnown(entry, ENTRY_FIELDS, where)（第 1 版的
  // firstKeptEntryIndex 被点名为旧字段）。summary 是字符串，firstKeptEntryId 匹配 ENTRY_ID，tokensBefore 是
  // 非负安全整数（-1、1.5、"5000" 都是一行错误，点名 tokensBefore），fromHook 没有或是布尔值。
  // Lab 11.1 ③：逐个字段组装一个新的 CompactionEntry（不要返回 entry 本身）。有 details 时：它是对象就先
  // onlyKnown(details, DETAILS_FIELDS, …)，新条目的 details 是 parseCompactionFiles() 返回的副本（新对象、新数组，
  // 不是 entry.details 本身：单独调用 parseCompactionEntry() 时也不和输入共享）；有 structured 就 parseCompactionSummary()。
  throw new Error("Lab 11.1 严格的压缩条目 尚未实现");
}
