// Checkpoint 19 · 学习脚手架：恢复。两条提示语（NOT_STARTED、INTERRUPTED_INTENT）、interruptedIntent()、recoveryPlan()
// 的框架（读出记录、找出未完成的任务、收集部分输出记录与意图）和 openBatch() 已经写好。Lab 19.3 与 Lab 19.4 各有一处
// 先抛出“尚未实现”的临时错误：做到那一段 Lab 时按编号完成它的注释描述的动作，删除临时错误，然后只运行那一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工具意图" packages/pi-coding-agent/dist/test/19-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 19.4 ⑤：只算这次没完成的请求的文本：分支上最后一条 message 条目之后的部分输出记录，或者 parentId 正是
  //   那条消息的（tiny-pi 把记录挂在叶上）；更早的属于已经完整回答了的请求。按文件顺序把它们的 text 连起来；
  //   空串 → undefined。否则是一条用户看得见的中止回答：{ role: "assistant", content: [{ type: "text", text }],
  //   stopReason: "aborted", errorMessage: "interrupted: tiny-pi stopped while this answer streamed; the request was sent again",
  //   timestamp: Date.now() }。请求随后从头再发（任务是 pending）。
  throw new Error("Lab 19.4 部分输出 尚未实现");
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
  // Lab 19.3 ④：按调用顺序走 open.calls；recorded = intents.get(call.id)（记录里工具当时说的可重放性；没有意图是 undefined）。
  //   有意图：recorded 为 true 并且 safeNow(call.name)（现在的工具也说可重放）→ 放进 plan.rerun，plan.replayedIntents 加 1；
  //   否则 → plan.interrupted 里放 interruptedIntent(call, open.assistant.timestamp)（可能跑过，也可能没有：不能再跑）。
  // Lab 19.3 ⑤：没有意图的调用从没开始（意图总在 execute() 之前提交）：safeNow(call.name) → 放进 plan.rerun（不加
  //   replayedIntents）；否则 → { ...toolErrorResult(call, NOT_STARTED, { notStarted: true }), timestamp: open.assistant.timestamp }
  //   放进 plan.interrupted：说它没有运行，留给模型再调用一次（经过 Runtime 的门禁与钩子）。
  throw new Error("Lab 19.3 工具意图 尚未实现");
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
