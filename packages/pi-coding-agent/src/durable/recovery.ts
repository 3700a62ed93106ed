// Lab 19.3/19.4 · 恢复: what a reopened branch needs before it can go on. An intent without a result
// is run again only when both its record and the tool as it is now say replay-safe; any other gets
// an interrupted error result paired with its call. A call with no intent never started (intents
// commit before execute()): a replay-safe one runs now; any other is paired with a "did not run"
// result, so the model asks again and the call goes through the Runtime's gate and hooks. Streamed text of a request that never completed becomes
// an aborted assistant entry the user sees; its task is pending and the request goes out again.
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@pi/core";
import { toolCallsOf, toolErrorResult } from "@pi/core";
import type { SessionEntry } from "../session/entries.js";
import { asDurable, type DurableEntry } from "./records.js";
import { taskStates } from "./tasks.js";

/** A call with no intent never started: a replay-safe one runs now, any other is left to the model to ask again. */
export const NOT_STARTED =
  "Interrupted before it started: tiny-pi stopped before running this call, so it did not run. Call it again if it is still needed.";

export const INTERRUPTED_INTENT =
  "Interrupted: this call may or may not have run (tiny-pi stopped after committing its intent and before saving its result). Check its effects before running it again.";

export interface RecoveryPlan {
  /** The open batch's calls to run now: replay-safe ones (with an intent, or never started). */
  rerun: ToolCall[];
  /** How many of `rerun` had an intent (ran, maybe, and are replay-safe). */
  replayedIntents: number;
  /** Error results for the other open calls (an unsafe intent, or an unsafe call that never started), in call order. */
  interrupted: ToolResultMessage[];
  /** The streamed text of a request cut off, as an aborted assistant message. */
  partial?: AssistantMessage;
  /** A task that never completed: its request goes out again. */
  pendingTask?: string;
}

export function interruptedIntent(call: ToolCall, at: number): ToolResultMessage {
  return { ...toolErrorResult(call, INTERRUPTED_INTENT, { interrupted: true }), timestamp: at };
}

/** What to do for the branch root → leaf (`branch`); `safeNow`: whether the current tool of that name is replay-safe. */
export function recoveryPlan(
  branch: readonly SessionEntry[],
  safeNow: (tool: string) => boolean,
  annotations: readonly DurableEntry[] = [],
): RecoveryPlan {
  const plan: RecoveryPlan = { rerun: [], replayedIntents: 0, interrupted: [] };
  // The records on the branch itself, then the ones annotating its entries (tiny-pi writes those).
  const onBranch = new Set(branch.map((entry) => entry.id));
  const records = [...branch, ...annotations.filter((entry) => !onBranch.has(entry.id))];
  // Tasks run one after another: only the branch's newest can still be going (an older one a new
  // prompt replaced stays as it was).
  const states = taskStates(records);
  const newest = [...states.keys()].at(-1);
  if (newest !== undefined && states.get(newest) === "pending") plan.pendingTask = newest;

  const partials = records.flatMap((entry) => {
    const durable = asDurable(entry);
    return durable?.data.kind === "partial" ? [durable] : [];
  });
  if (plan.pendingTask !== undefined && partials.length > 0) {
    const partial = partialAnswer(branch, partials);
    if (partial !== undefined) plan.partial = partial;
  }

  const open = openBatch(branch);
  if (open === undefined) return plan;
  const intents = new Map<string, boolean>();
  for (const entry of records) {
    const data = asDurable(entry)?.data;
    if (data?.kind === "intent") intents.set(data.callId, data.replaySafe);
  }
  planCalls(plan, open, intents, safeNow);
  return plan;
}

/**
 * The streamed text of the request in flight, as an aborted assistant message the user sees: the
 * partial records after the branch's last message, or annotating it, in file order; earlier ones
 * belong to answers that completed. Undefined when none of them does.
 */
function partialAnswer(
  branch: readonly SessionEntry[],
  partials: readonly DurableEntry[],
): AssistantMessage | undefined {
  let lastMessage = -1;
  for (const [index, entry] of branch.entries()) if (entry.type === "message") lastMessage = index;
  const lastId = branch[lastMessage]?.id;
  const afterLast = new Set(branch.slice(lastMessage + 1).map((entry) => entry.id));
  const text = partials
    .flatMap((entry) =>
      entry.data.kind === "partial" && (afterLast.has(entry.id) || (lastId !== undefined && entry.parentId === lastId))
        ? [entry.data.text]
        : [],
    )
    .join("");
  if (text === "") return undefined;
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    stopReason: "aborted",
    errorMessage: "interrupted: tiny-pi stopped while this answer streamed; the request was sent again",
    timestamp: Date.now(),
  } as AssistantMessage;
}

/**
 * Each open call, in call order: with an intent, run again only when the record (what the tool said
 * then) and `safeNow` (the tool now) both say replay-safe, else an interrupted result; with no
 * intent it never started: a replay-safe one runs now, any other is paired with a "did not run" result.
 */
function planCalls(
  plan: RecoveryPlan,
  open: { assistant: AssistantMessage; calls: ToolCall[] },
  intents: ReadonlyMap<string, boolean>,
  safeNow: (tool: string) => boolean,
): void {
  for (const call of open.calls) {
    const recorded = intents.get(call.id);
    if (recorded === undefined && safeNow(call.name)) plan.rerun.push(call);
    else if (recorded === undefined) {
      plan.interrupted.push({
        ...toolErrorResult(call, NOT_STARTED, { notStarted: true }),
        timestamp: open.assistant.timestamp,
      });
    } else if (recorded && safeNow(call.name)) {
      plan.rerun.push(call);
      plan.replayedIntents += 1;
    } else plan.interrupted.push(interruptedIntent(call, open.assistant.timestamp));
  }
}

/** The calls of the branch's last assistant that no result answers (undefined when none). */
function openBatch(branch: readonly SessionEntry[]): { assistant: AssistantMessage; calls: ToolCall[] } | undefined {
  const answered = new Set<string>();
  for (let index = branch.length - 1; index >= 0; index -= 1) {
    const entry = branch[index] as SessionEntry;
    if (entry.type !== "message") continue;
    const { message } = entry;
    if (message.role === "toolResult") {
      answered.add(message.toolCallId);
      continue;
    }
    if (message.role !== "assistant") return undefined;
    const calls = toolCallsOf(message).filter((call) => !answered.has(call.id));
    return calls.length === 0 ? undefined : { assistant: message, calls };
  }
  return undefined;
}
