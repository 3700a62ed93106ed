// Opening a Runtime. An empty session needs no leaf; a session that holds entries must be told
// which one to continue from (its last entry is only one of the leaves a tree can have), and the
// path to that leaf is deep-copied: the Runtime's history is its own, whatever the store does
// with the objects it handed out. What is returned is the control surface alone: the engine,
// the store and the model stay inside, so nothing can prompt or persist around the Runtime.
import type { SessionEntry } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";
import { createRuntime } from "./runtime.js";
import { type Runtime, RuntimeError, type RuntimeOptions } from "./types.js";

export function openRuntime(options: RuntimeOptions): Runtime {
  const core = createRuntime(options, restoredPath(options.session, options.leaf));
  return Object.freeze({
    prompt: core.prompt,
    steer: core.steer,
    abort: core.abort,
    queued: core.queued,
    subscribe: core.subscribe,
    flush: core.flush,
    dispose: core.dispose,
    messages: core.messages,
    compaction: core.compaction,
    leafId: core.leafId,
    failure: core.failure,
    systemPrompt: core.systemPrompt,
  });
}

/** Root → `leaf`, deep-copied; [] for an empty session. One RuntimeError line for a missing or unknown leaf. */
export function restoredPath(session: SessionStore, leaf: string | undefined): SessionEntry[] {
  const count = session.entries().length;
  if (count === 0) {
    if (leaf !== undefined) throw new RuntimeError(`会话是空的，没有条目 ${leaf}：打开空会话时不要指定 leaf。`);
    return [];
  }
  if (leaf === undefined) {
    throw new RuntimeError(
      `会话已有 ${count} 个条目：打开时要用 leaf 明确指定从哪个条目继续（例如 session.leafId()）。`,
    );
  }
  if (!session.has(leaf)) throw new RuntimeError(`会话里没有 id 为 ${leaf} 的条目：leaf 要是会话里已有的条目。`);
  return structuredClone(session.pathTo(leaf));
}
