// Parsing is fail-closed: a value from a file (or a caller) becomes a SessionEntry only when it
// is exactly one, and the entry returned is a fresh copy that shares nothing with the input.
// Anything else is one line naming what is wrong, never a guess. A line fresh from JSON.parse is
// already a value no one else holds, so recovery checks it where it is (checkEntry) instead.
import { parseCompactionEntry } from "../compaction/summary.js";
import { ENTRY_ID, LATER_ENTRY_TYPES, SESSION_VERSION, type SessionEntry, type SessionHeader } from "./entries.js";
import { messageProblem } from "./message-shape.js";

type Json = Record<string, unknown>;

/**
 * A deep copy of `value` that holds only JSON: objects (plain), arrays, strings, finite numbers,
 * booleans and null. `undefined`, functions, symbols, bigints, NaN and ±Infinity, class
 * instances (Date, Map…) and cycles throw one line naming the path (`entry.message.content[0]`).
 */
export function copyJson(value: unknown, where: string, ancestors: Set<object> = new Set()): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${where} 是 ${value}：JSON 里没有这个数`);
    return value;
  }
  if (typeof value !== "object") throw new Error(`${where} 是 ${typeof value}：不是 JSON 值`);
  if (ancestors.has(value)) throw new Error(`${where} 引用了它自己的上层（循环引用）：不是 JSON 值`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      for (let index = 0; index < value.length; index += 1) {
        copy.push(copyJson(value[index], `${where}[${index}]`, ancestors));
      }
      return copy;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new Error(`${where} 是 ${value.constructor?.name ?? "非普通"} 对象：不是 JSON 值`);
    }
    const copy: Json = {};
    for (const [key, field] of Object.entries(value)) copy[key] = copyJson(field, `${where}.${key}`, ancestors);
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

/** Whether every number in `json`, a value holding only JSON shapes, is finite. */
export function onlyFiniteNumbers(json: unknown): boolean {
  if (typeof json === "number") return Number.isFinite(json);
  if (typeof json !== "object" || json === null) return true;
  if (Array.isArray(json)) return json.every(onlyFiniteNumbers);
  for (const key of Object.keys(json)) if (!onlyFiniteNumbers((json as Json)[key])) return false;
  return true;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTimestamp(value: unknown): boolean {
  return typeof value === "string" && !Number.isNaN(Date.parse(value));
}

function requireString(entry: Json, field: string): void {
  if (typeof entry[field] !== "string") throw new Error(`${entry.type} 条目的 ${field} 不是字符串`);
}

/** `value` as a SessionEntry (a copy), or one line naming why it is not one. */
export function parseEntry(value: unknown): SessionEntry {
  return checkEntry(copyJson(value, "entry"));
}

/**
 * `entry` as a SessionEntry, checked where it is (not copied), or one line naming why it is not
 * one. It must hold only JSON shapes and belong to no one else: copyJson's copy, or a value fresh
 * from JSON.parse (its numbers are still checked, since JSON.parse reads 1e400 as Infinity).
 */
export function checkEntry(entry: unknown): SessionEntry {
  // JSON.parse reads a literal too large for a double (1e400) as Infinity; copyJson names where.
  if (!onlyFiniteNumbers(entry)) copyJson(entry, "entry");
  if (!isObject(entry)) throw new Error("条目不是 JSON 对象");
  const { type } = entry;
  if (typeof type !== "string") throw new Error("条目没有 type");
  if (LATER_ENTRY_TYPES.has(type)) {
    throw new Error(`条目类型 ${type} 属于后面的章节，本章的读取器不能使用它：请用能读取 ${type} 的版本打开这个会话`);
  }
  if (typeof entry.id !== "string" || !ENTRY_ID.test(entry.id))
    throw new Error(`${type} 条目的 id 不是 8 位十六进制数`);
  if (entry.parentId !== null && (typeof entry.parentId !== "string" || !ENTRY_ID.test(entry.parentId))) {
    throw new Error(`条目 ${entry.id} 的 parentId 既不是 null 也不是 8 位十六进制 id`);
  }
  if (!isTimestamp(entry.timestamp)) throw new Error(`条目 ${entry.id} 的 timestamp 不是 ISO 时间`);
  switch (type) {
    case "message": {
      const problem = messageProblem(entry.message);
      if (problem !== undefined) throw new Error(`条目 ${entry.id}：${problem}`);
      break;
    }
    case "label":
      requireString(entry, "targetId");
      if (entry.label !== undefined) requireString(entry, "label");
      break;
    case "session_info":
      requireString(entry, "name");
      break;
    case "model_change":
      requireString(entry, "provider");
      requireString(entry, "modelId");
      break;
    case "thinking_level_change":
      requireString(entry, "thinkingLevel");
      break;
    case "compaction":
      return parseCompactionEntry(entry);
    default:
      throw new Error(`未知的条目类型 ${type}：会话格式第 ${SESSION_VERSION} 版里没有它`);
  }
  return entry as unknown as SessionEntry;
}

/** `value` as the header of a version 3 session file (a copy), or one line naming why it is not one. */
export function parseHeader(value: unknown): SessionHeader {
  const header = copyJson(value, "header");
  if (!isObject(header) || header.type !== "session") throw new Error('第一行不是会话头（{"type":"session",…}）');
  if (header.version !== SESSION_VERSION) {
    const version =
      header.version === undefined ? "没有版本号（第 1 版）" : `的版本是 ${JSON.stringify(header.version)}`;
    throw new Error(`会话头${version}：这里只读第 ${SESSION_VERSION} 版`);
  }
  if (typeof header.id !== "string" || header.id === "") throw new Error("会话头的 id 不是非空字符串");
  if (!isTimestamp(header.timestamp)) throw new Error("会话头的 timestamp 不是 ISO 时间");
  if (typeof header.cwd !== "string") throw new Error("会话头的 cwd 不是字符串");
  if (header.parentSession !== undefined && typeof header.parentSession !== "string") {
    throw new Error("会话头的 parentSession 不是字符串");
  }
  return header as unknown as SessionHeader;
}
