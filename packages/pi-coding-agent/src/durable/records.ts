// Chapter 19's durable records: `custom` entries of Pi's format version 3 with our customType.
// Pi's readers keep custom entries out of the context (and its export lists them as extension
// state), so a durable session is still one file Pi renders and continues; recovery reads them.
import { newEntryId } from "../session/entries.js";

export const DURABLE = "tiny-pi/durable";

export type TaskState = "pending" | "running" | "completed";

/** A generation task: started by a user prompt, running while requests go out, completed at the run's end. */
export interface TaskRecord {
  kind: "task";
  task: string;
  state: TaskState;
  /** completed: how the run ended ("stop", "error", …). */
  outcome?: string;
}

/** A tool call about to run: committed before `execute()`; `replaySafe` as the tool said then. */
export interface IntentRecord {
  kind: "intent";
  callId: string;
  tool: string;
  replaySafe: boolean;
}

/** Streamed text of the request in flight, committed in batches as it arrives. */
export interface PartialRecord {
  kind: "partial";
  task: string;
  text: string;
}

export type DurableRecord = TaskRecord | IntentRecord | PartialRecord;

/** A durable record as an entry; `batch`: this entry and the next batch − 1 lines commit as one. */
export interface DurableEntry {
  type: "custom";
  customType: typeof DURABLE;
  id: string;
  parentId: string | null;
  timestamp: string;
  data: DurableRecord & { batch?: number };
}

export function durableEntry(
  record: DurableRecord,
  parentId: string | null,
  id: string = newEntryId(),
  now: Date = new Date(),
): DurableEntry {
  return { type: "custom", customType: DURABLE, id, parentId, timestamp: now.toISOString(), data: { ...record } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isDurableEntry(value: unknown): value is DurableEntry {
  return isObject(value) && value.type === "custom" && value.customType === DURABLE && isObject(value.data);
}

/** `value` as a durable entry, or one line naming what is wrong with it. */
export function checkDurableEntry(value: unknown): DurableEntry {
  if (!isDurableEntry(value)) throw new Error(`不是 ${DURABLE} 条目`);
  const { id, parentId, data } = value;
  if (typeof id !== "string" || !/^[0-9a-f]{8}$/.test(id)) throw new Error(`${DURABLE} 条目的 id 不是 8 位十六进制`);
  if (parentId !== null && typeof parentId !== "string") throw new Error(`${DURABLE} 条目 ${id} 的 parentId 不对`);
  const ok =
    (data.kind === "task" &&
      typeof data.task === "string" &&
      ["pending", "running", "completed"].includes(data.state as string)) ||
    (data.kind === "intent" &&
      typeof data.callId === "string" &&
      typeof data.tool === "string" &&
      typeof data.replaySafe === "boolean") ||
    (data.kind === "partial" && typeof data.task === "string" && typeof data.text === "string");
  if (!ok) throw new Error(`${DURABLE} 条目 ${id} 的 data 不是任务、意图或部分输出记录`);
  if (data.batch !== undefined && !(Number.isInteger(data.batch) && data.batch >= 1)) {
    throw new Error(`${DURABLE} 条目 ${id} 的 batch 不是正整数`);
  }
  return value;
}

/** `entry` as a durable entry when it is one (a session's entries are typed without them). */
export function asDurable(entry: unknown): DurableEntry | undefined {
  return isDurableEntry(entry) ? entry : undefined;
}

/** `entries` without durable records: what a view of the conversation shows. */
export function withoutDurable<T>(entries: readonly T[]): T[] {
  // An entry appended under a record (a leaf chosen on it) hangs under the record's own parent instead.
  const parents = new Map<string, string | null>();
  for (const entry of entries) if (isDurableEntry(entry)) parents.set(entry.id, entry.parentId);
  if (parents.size === 0) return [...entries];
  return entries.flatMap((entry) => {
    if (isDurableEntry(entry)) return [];
    let parent = (entry as { parentId?: string | null }).parentId ?? null;
    while (parent !== null && parents.has(parent)) parent = parents.get(parent) ?? null;
    return parent === ((entry as { parentId?: string | null }).parentId ?? null)
      ? [entry]
      : [{ ...entry, parentId: parent }];
  });
}

/**
 * The durable records that annotate `branch`, in file order: their parent is on it, or they hang at
 * the root (parentId null: a new session's first task, committed before any entry), where every
 * branch starts.
 */
export function recordsOf<T extends { id: string }>(all: readonly unknown[], branch: readonly T[]): DurableEntry[] {
  const ids = new Set(branch.map((entry) => entry.id));
  return all.flatMap((entry) => {
    const durable = asDurable(entry);
    return durable !== undefined && (durable.parentId === null || ids.has(durable.parentId)) ? [durable] : [];
  });
}
