// The compaction entry's schema. A summary is structured (named fields, each a list of short
// lines) so the next compaction can merge it field by field instead of re-summarising prose; the
// files read and modified are tracked beside it, as upstream Pi does. Parsing is strict, like
// every entry: a missing field, a field of an older format or a number that is not a token count
// is one line naming it, and what is accepted is a fresh copy.
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
  if (!isObject(value)) throw new Error(`${where} 不是对象`);
  onlyKnown(value, SUMMARY_FIELDS, where);
  if (typeof value.goal !== "string") throw new Error(`${where}的 goal 不是字符串`);
  const summary: Partial<CompactionSummary> = { goal: value.goal };
  for (const field of LIST_FIELDS) summary[field] = stringList(value[field], `${where}的 ${field}`);
  return summary as CompactionSummary;
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
  const where = `compaction 条目 ${entry.id}`;
  onlyKnown(entry, ENTRY_FIELDS, where);
  if (typeof entry.summary !== "string") throw new Error(`${where} 的 summary 不是字符串`);
  if (typeof entry.firstKeptEntryId !== "string" || !ENTRY_ID.test(entry.firstKeptEntryId)) {
    throw new Error(`${where} 的 firstKeptEntryId 不是 8 位十六进制 id`);
  }
  const { tokensBefore } = entry;
  if (typeof tokensBefore !== "number" || !Number.isSafeInteger(tokensBefore) || tokensBefore < 0) {
    throw new Error(`${where} 的 tokensBefore 是 ${JSON.stringify(tokensBefore)}：应是非负整数（token 数）`);
  }
  if (entry.fromHook !== undefined && typeof entry.fromHook !== "boolean") {
    throw new Error(`${where} 的 fromHook 不是布尔值`);
  }
  const parsed: CompactionEntry = {
    type: "compaction",
    id: entry.id as string,
    parentId: entry.parentId as string | null,
    timestamp: entry.timestamp as string,
    summary: entry.summary,
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore,
  };
  if (entry.details !== undefined) {
    if (isObject(entry.details)) onlyKnown(entry.details, DETAILS_FIELDS, `${where} 的 details`);
    const details: CompactionEntry["details"] = parseCompactionFiles(entry.details, `${where} 的 details`);
    const { structured } = entry.details as Json;
    if (structured !== undefined) details.structured = parseCompactionSummary(structured, `${where} 的摘要`);
    parsed.details = details;
  }
  if (entry.fromHook !== undefined) parsed.fromHook = entry.fromHook;
  return parsed;
}
