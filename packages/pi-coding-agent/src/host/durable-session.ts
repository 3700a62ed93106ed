// tiny-pi's durable sessions (chapter 19). Every run with the course's session code is durable: its
// file is written through the commit log. --resume of a file that holds durable records cuts a torn
// tail off instead of refusing it (a crash is expected to leave one), and recovery, once the tools
// are known, keeps a partial answer as an aborted entry, runs replay-safe intents (and calls that
// never started) again and pairs every other open intent with an interrupted result, then says so
// in one line. A pending task goes on where it stopped.
import { readFileSync } from "node:fs";
import { executeToolCall, type Message, type ToolRegistry } from "@pi/core";
import type { DurableSessionStore } from "../durable/durable-store.js";
import type { MaybeReplaySafe } from "../durable/index.js";
import { DURABLE } from "../durable/records.js";
import { messageEntry, newEntryId } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";
import type { DurableCode } from "./durable-code.js";
import { UsageError } from "./errors.js";
import type { SessionCode } from "./session-code.js";

/** Whether `file` holds durable records (a durable run wrote it). */
export function isDurableFile(file: string): boolean {
  try {
    return readFileSync(file, "utf8").includes(`"customType":"${DURABLE}"`);
  } catch {
    return false;
  }
}

/** Opens a durable file for --resume with `durable`'s store: its torn tail (if a crash left one) is cut off. */
export async function openDurableFile(
  file: string,
  code: SessionCode,
  durable: DurableCode,
): Promise<DurableSessionStore> {
  try {
    return await durable.DurableSessionStore.open(file, code.readEntry);
  } catch (error) {
    throw new UsageError(
      `会话文件 ${(error as Error).message}：文件没有被改动；请修好或删掉这一行，或者换一个会话文件。`,
    );
  }
}

/** What recovery needs of tiny-pi's HostSession (session-store.ts), and gives back with a new leaf. */
interface Opened {
  readonly store: SessionStore;
  readonly leaf: string | undefined;
  /** The durable layer the session runs on: its recoveryPlan decides. */
  readonly durable?: DurableCode;
  /** The bytes of the torn tail a crash left, cut off when the file was opened. */
  readonly tornBytes?: number;
}

export interface Recovered<S extends Opened> {
  session: S;
  /** The one line to print; undefined when the run had stopped cleanly. */
  line?: string;
  /** The task to go on with (only when the run goes on with one). */
  pendingTask?: string;
}

/**
 * Applies recovery to the branch `session` opens at; appends go through the session's store (redaction, Pi's fields).
 * `goesOn`: the run continues a pending task (no prompt given, not the REPL); otherwise the line says a new prompt replaces it.
 */
export async function recoverDurable<S extends Opened>(
  session: S,
  tools: ToolRegistry,
  goesOn = true,
): Promise<Recovered<S>> {
  if (session.leaf === undefined || session.durable === undefined) return { session };
  const { store, durable } = session;
  const tornBytes = session.tornBytes ?? 0;
  const branch = store.pathTo(session.leaf);
  const plan = durable.recoveryPlan(
    branch,
    (name) => durable.isReplaySafe(tools.get(name) as MaybeReplaySafe | undefined),
    durable.recordsOf(store.entries(), branch),
  );
  let leaf = session.leaf;
  const add = async (message: Message) => {
    const entry = messageEntry(
      message,
      leaf,
      newEntryId((id) => store.has(id)),
    );
    await store.append(entry);
    leaf = entry.id;
  };
  if (plan.partial !== undefined) await add(plan.partial);
  const reruns = new Map<string, Message>();
  for (const call of plan.rerun) reruns.set(call.id, await executeToolCall(call, tools, {}));
  for (const result of [...reruns.values(), ...plan.interrupted]) await add(result);
  const nothing =
    plan.partial === undefined &&
    plan.rerun.length === 0 &&
    plan.interrupted.length === 0 &&
    plan.pendingTask === undefined &&
    tornBytes === 0;
  const recovered: Recovered<S> = { session: { ...session, leaf } };
  if (plan.pendingTask !== undefined && goesOn) recovered.pendingTask = plan.pendingTask;
  if (!nothing) {
    const partial = plan.partial === undefined ? "没有部分回答" : "部分回答已保留为一条中止的回答";
    const fresh = plan.rerun.length - plan.replayedIntents;
    const task =
      plan.pendingTask === undefined
        ? "没有未完成的任务"
        : goesOn
          ? `继续未完成的任务 ${plan.pendingTask}`
          : `未完成的任务 ${plan.pendingTask} 不再继续：这次的提示开始新的任务`;
    recovered.line =
      `恢复：${partial}；重跑了 ${plan.replayedIntents} 个可重放的调用` +
      (fresh > 0 ? `（另有 ${fresh} 个还没开始的调用现在运行）` : "") +
      `，${plan.interrupted.length} 个不可重放的调用标为 interrupted；` +
      (tornBytes > 0 ? `截掉了 ${tornBytes} 字节没写完的尾巴；` : "") +
      task;
  }
  return recovered;
}
