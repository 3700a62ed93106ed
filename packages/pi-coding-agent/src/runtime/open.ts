// Opening a Runtime. An empty session needs no leaf; a session that holds entries must be told
// which one to continue from (its last entry is only one of the leaves a tree can have), and the
// path to that leaf is deep-copied: the Runtime's history is its own, whatever the store does
// with the objects it handed out. What is returned is the control surface alone: the engine,
// the store and the model stay inside, so nothing can prompt or persist around the Runtime.

import type { AgentRunResult } from "@pi/course";
import type { SessionEntry } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";
import { createRuntime } from "./runtime.js";
import { type Runtime, type RuntimeCore, RuntimeError, type RuntimeOptions } from "./types.js";

/** Chapter 19's resume, kept off chapter 13's control surface: reached through continueTask() only. */
const resumers = new WeakMap<Runtime, NonNullable<RuntimeCore["resume"]>>();

/**
 * Goes on with `task`, a generation task a durable session's recovery found unfinished: the request
 * is sent again from the restored path, with no new user message. Refused like prompt().
 */
export function continueTask(runtime: Runtime, task: string): Promise<AgentRunResult> {
  const resume = resumers.get(runtime);
  if (resume === undefined)
    return Promise.reject(new RuntimeError("这个 Runtime 不是 openRuntime 打开的：不能继续任务。"));
  return resume(task);
}

export function openRuntime(options: RuntimeOptions): Runtime {
  const core = createRuntime(options, restoredPath(options.session, options.leaf));
  const runtime: Runtime = Object.freeze({
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
  if (core.resume !== undefined) resumers.set(runtime, core.resume);
  return runtime;
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
