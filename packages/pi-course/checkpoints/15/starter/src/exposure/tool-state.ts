// Checkpoint 15 · 学习脚手架：工具状态。条目的类型、严格检查用的 onlyKeys()、recordsToolState()、
// parseToolStateEntry() 与 toolStateEntry() 已经写好。Lab 15.2 的几处先抛出“尚未实现”的临时错误。按 ① → ③
// 完成 `// Lab 15.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工具状态" packages/pi-coding-agent/dist/test/15-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import type { ToolDefinition } from "@pi/core";
import type { SessionEntry, ToolStateEntry } from "../session/entries.js";

/** The customType of a tool-state change. */
export const TOOL_STATE = "pi-course/tool-state";

/** Removals are replayed before additions; a changed definition is removed, then added. */
export interface ToolChange {
  added: ToolDefinition[];
  removed: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Json, keys: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw new Error(`${where} 有未知的字段 ${key}：只认 ${keys.join("、")}`);
  }
}

/** `data` as a ToolChange (a fresh copy), or one line naming why it is not one. */
export function parseToolChange(data: unknown): ToolChange {
  // Lab 15.2 ①：严格的解析：data 必须是对象（isObject），只有 added 与 removed 两个键（onlyKeys），两者都是数组，
  // 不能都为空（“工具变化是空的”）；removed 的每项是非空字符串；added 的每项是对象，只有 name、description、
  // parameters（onlyKeys），name 是非空字符串，description 是字符串，parameters 是对象（数组、字符串都不是）。
  // 每种错误一行，说出哪个字段（例如 `工具变化的 added[0] 的 parameters 不是 JSON 对象`）。返回新的副本
  // （structuredClone），不共享输入的引用。
  throw new Error("Lab 15.2 工具状态 尚未实现");
}

/** The tools declared at the end of `path`: every tool-state change replayed in order, as fresh copies. */
export function declaredOn(path: readonly SessionEntry[]): ToolDefinition[] {
  // Lab 15.2 ②：一个 Map<name, 定义>，按顺序走路径：只看 type 为 custom、customType 为 TOOL_STATE 的条目，
  // 先删 data.removed 里的每个名字，再 set data.added 里的每个定义（改了的定义先删再加，所以排到最后）。
  // 返回 structuredClone([...map.values()])：结果不共享条目里的引用。
  throw new Error("Lab 15.2 工具状态 尚未实现");
}

/** Whether `path` records any tool state: a branch without one is chapter 07's transcript. */
export function recordsToolState(path: readonly SessionEntry[]): boolean {
  return path.some((entry) => entry.type === "custom" && entry.customType === TOOL_STATE);
}

/**
 * The change from `before` to `after`, or undefined when they declare the same tools: gone or
 * changed tools are removed, new or changed ones added (in `after`'s order). Copies throughout.
 */
export function toolChange(
  before: readonly ToolDefinition[],
  after: readonly ToolDefinition[],
): ToolChange | undefined {
  // Lab 15.2 ③：按名字比较两边的 JSON.stringify(定义)：before 里在 after 中没有或不同的 → removed（名字，
  // before 的顺序）；after 里在 before 中没有或不同的 → added（定义，after 的顺序）。两者都空就返回 undefined，
  // 否则返回 structuredClone({ added, removed })。
  throw new Error("Lab 15.2 工具状态 尚未实现");
}

/**
 * A `custom` entry as a tool-state change, or one line naming why not. Other customTypes are
 * extension state a later chapter reads; the entry's base fields are checked by the caller.
 */
export function parseToolStateEntry(entry: Json): ToolStateEntry {
  if (entry.customType !== TOOL_STATE) {
    throw new Error(
      `条目 ${String(entry.id)} 是 customType 为 ${JSON.stringify(entry.customType)} 的 custom 条目：这一章只读 ${TOOL_STATE}`,
    );
  }
  onlyKeys(entry, ["type", "id", "parentId", "timestamp", "customType", "data"], `条目 ${String(entry.id)}`);
  return {
    type: "custom",
    id: entry.id as string,
    parentId: entry.parentId as string | null,
    timestamp: entry.timestamp as string,
    customType: TOOL_STATE,
    data: parseToolChange(entry.data),
  };
}

/** A tool-state entry recording `change` under `parentId`. */
export function toolStateEntry(
  change: ToolChange,
  parentId: string | null,
  id: string,
  now: Date = new Date(),
): ToolStateEntry {
  return {
    type: "custom",
    id,
    parentId,
    timestamp: now.toISOString(),
    customType: TOOL_STATE,
    data: parseToolChange(change),
  };
}
