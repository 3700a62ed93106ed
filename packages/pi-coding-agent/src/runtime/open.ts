// Opening a Runtime. An empty session needs no leaf; a session that holds entries must be told
// which one to continue from (its last entry is only one of the leaves a tree can have), and the
// path to that leaf is deep-copied: the Runtime's history is its own, whatever the store does
// with the objects it handed out.
import type { SessionEntry } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";
import { createRuntime } from "./runtime.js";
import { type Runtime, RuntimeError, type RuntimeOptions } from "./types.js";

export function openRuntime(options: RuntimeOptions): Runtime {
  return createRuntime(options, restoredPath(options.session, options.leaf));
}

/** Root → `leaf`, copied; [] for an empty session. One RuntimeError line for a missing or unknown leaf. */
export function restoredPath(session: SessionStore, leaf: string | undefined): SessionEntry[] {
  const count = session.entries().length;
  if (count === 0) {
    if (leaf !== undefined) throw new RuntimeError(`会话是空的，没有条目 ${leaf}：打开空会话时不要指定 leaf。`);
    return [];
  }
  if (leaf === undefined) {
    throw new RuntimeError(`会话已有 ${count} 个条目：打开时要用 leaf 明确指定从哪个条目继续（例如 session.leafId()）。`);
  }
  if (!session.has(leaf)) throw new RuntimeError(`会话里没有 id 为 ${leaf} 的条目：leaf 要是会话里已有的条目。`);
  return structuredClone(session.pathTo(leaf));
}
