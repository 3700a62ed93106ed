// Lab 15.2 · 工具状态: what a branch declares is derived from its entries, never kept in a
// variable. A change is its own entry, in Pi's v3 format a `custom` entry with our own
// customType: Pi 0.73 reads it and leaves it out of the context, as it does every custom entry.
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
  if (!isObject(data)) throw new Error("工具变化不是 JSON 对象");
  onlyKeys(data, ["added", "removed"], "工具变化");
  const { added, removed } = data;
  if (!Array.isArray(added) || !Array.isArray(removed)) throw new Error("工具变化的 added 与 removed 都必须是数组");
  if (added.length === 0 && removed.length === 0) throw new Error("工具变化是空的：没有变化就不写这个条目");
  const names = removed.map((name, index) => {
    if (typeof name !== "string" || name === "") throw new Error(`工具变化的 removed[${index}] 不是非空的工具名`);
    return name;
  });
  const definitions = added.map((tool, index) => {
    const where = `工具变化的 added[${index}]`;
    if (!isObject(tool)) throw new Error(`${where} 不是 JSON 对象`);
    onlyKeys(tool, ["name", "description", "parameters"], where);
    if (typeof tool.name !== "string" || tool.name === "") throw new Error(`${where} 的 name 不是非空字符串`);
    if (typeof tool.description !== "string") throw new Error(`${where} 的 description 不是字符串`);
    if (!isObject(tool.parameters)) throw new Error(`${where} 的 parameters 不是 JSON 对象（参数的 JSON Schema）`);
    return { name: tool.name, description: tool.description, parameters: tool.parameters };
  });
  return structuredClone({ added: definitions, removed: names });
}

/** The tools declared at the end of `path`: every tool-state change replayed in order, as fresh copies. */
export function declaredOn(path: readonly SessionEntry[]): ToolDefinition[] {
  const declared = new Map<string, ToolDefinition>();
  for (const entry of path) {
    if (entry.type !== "custom" || entry.customType !== TOOL_STATE) continue;
    for (const name of entry.data.removed) declared.delete(name);
    for (const tool of entry.data.added) declared.set(tool.name, tool);
  }
  return structuredClone([...declared.values()]);
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
  const was = new Map(before.map((tool) => [tool.name, JSON.stringify(tool)]));
  const now = new Map(after.map((tool) => [tool.name, JSON.stringify(tool)]));
  const removed = before.filter((tool) => now.get(tool.name) !== was.get(tool.name)).map((tool) => tool.name);
  const added = after.filter((tool) => was.get(tool.name) !== now.get(tool.name));
  if (removed.length === 0 && added.length === 0) return undefined;
  return structuredClone({ added, removed });
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
