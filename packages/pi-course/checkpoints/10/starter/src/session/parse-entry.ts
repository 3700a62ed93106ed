// Checkpoint 10 · 学习脚手架：copyJson() 与 checkEntry() 的签名、parseEntry()（先 copyJson 再
// checkEntry）、onlyFiniteNumbers()、isObject()、isTimestamp()、requireString() 和会话头的解析
// parseHeader() 已经写好（parseHeader 用到你写的 copyJson）；消息的形状检查在 message-shape.ts 的
// messageProblem() 里。Lab 10.2 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ④ 完成 `// Lab 10.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="条目解析" packages/pi-coding-agent/dist/test/10-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import { ENTRY_ID, LATER_ENTRY_TYPES, SESSION_VERSION, type SessionEntry, type SessionHeader } from "./entries.js";
import { messageProblem } from "./message-shape.js";

type Json = Record<string, unknown>;

/**
 * A deep copy of `value` that holds only JSON: objects (plain), arrays, strings, finite numbers,
 * booleans and null. `undefined`, functions, symbols, bigints, NaN and ±Infinity, class
 * instances (Date, Map…) and cycles throw one line naming the path (`entry.message.content[0]`).
 */
export function copyJson(value: unknown, where: string, ancestors: Set<object> = new Set()): unknown {
  // Lab 10.2 ①：null、字符串、布尔值原样返回；数字必须是有限数（NaN、Infinity 一行报错）；其余不是
  // object 的（undefined、函数、symbol、bigint）一行报错。每条报错都写出 where（值所在的路径）。
  // Lab 10.2 ②：对象已经在 ancestors 里就是循环引用，一行报错；否则加进 ancestors，复制完再（在
  // finally 里）删掉它，所以共享而不成环的引用可以复制。数组逐项复制（路径 `${where}[i]`，空位就是
  // undefined）；原型不是 Object.prototype 或 null 的对象（Date、Map、类的实例）一行报错；普通对象
  // 逐个字段复制（路径 `${where}.${key}`）。
  throw new Error("Lab 10.2 fail-closed 的条目解析 尚未实现");
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
  // Lab 10.2 ③：entry 已经只有 JSON 的形状，就地检查，不再复制。它必须是对象、有字符串 type；type 在
  // LATER_ENTRY_TYPES 里（后面的章节才加进来的类型，比如第 11 章的 compaction）就一行报错点名它，不去猜；
  // id 必须匹配 ENTRY_ID（8 位十六进制），parentId 是 null 或同样的 id，timestamp 是 ISO 时间。
  // Lab 10.2 ④：按 type 检查其余字段：message 用 messageProblem(entry.message)（有问题就报错并写出
  // 条目 id）；label 要字符串 targetId，label 字段可以没有；session_info 要 name；model_change 要
  // provider 与 modelId；thinking_level_change 要 thinkingLevel。其他 type 一行报错点名它。通过后返回 entry。
  throw new Error("Lab 10.2 fail-closed 的条目解析 尚未实现");
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
