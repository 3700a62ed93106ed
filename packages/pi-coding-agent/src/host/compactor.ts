// Compaction in tiny-pi, on chapter 11's functions, as the Runtime's compact hook. The Runtime's
// context adapter builds each request from the active path (buildContext: the newest compaction's
// summary, then the kept suffix, whole interactions only); when older messages no longer fit it
// calls `hook`: one summarisation request replaces them, the `compaction` entry is appended through
// the Runtime, the context rebuilt, and one line tells the tokens before and after. `/compact
// [instructions]` does it on demand, keeping only the newest interaction. A failed or aborted
// summarisation appends nothing. `buildContext` refuses, before any summary is asked for, a newest
// interaction that alone does not fit: no summary can help it.
import type { Model } from "@pi/core";
import {
  type BuiltContext,
  type ContextBudget,
  compactionFiles,
  defaultSafetyMargin,
  estimateTokens,
  summaryMessage,
} from "../compaction/index.js";
import type { CompactHook, CompactionTarget } from "../runtime/index.js";
import type { SessionEntry } from "../session/entries.js";
import { type CompactionCode, courseCompactionCode } from "./compaction-code.js";
import { CONTEXT_TOO_BIG, CompactionError } from "./compaction-error.js";
import type { WindowInForce } from "./context-window.js";
import { summarise } from "./summarise.js";

export interface CompactorOptions {
  /** The model that summarises: the same one, without the session's recording. */
  model: Model;
  window: WindowInForce | undefined;
  /** Where the one line of each compaction goes. */
  notes: { write(text: string): unknown };
  /** Chapter 11's code: the course's unless --from gives a learner's. */
  code?: CompactionCode;
}

export class Compactor {
  private readonly code: CompactionCode;

  constructor(private readonly options: CompactorOptions) {
    this.code = options.code ?? courseCompactionCode;
  }

  /** The Runtime's compact hook: older interactions did not fit `budget`; summarise them until the rest does. */
  readonly hook: CompactHook = async (cut, budget, target, signal) => {
    let context = cut;
    // The cut leaves a quarter of the budget for the summary. Each compaction moves it forward, so
    // this ends; a second round comes only when the summary took more than that room from a kept
    // interaction: that one is summarised too, never silently left out.
    while (context.dropped.length > 0) {
      const path = target.path();
      const roomy = this.code.buildContext(path, {
        ...budget,
        safetyMarginTokens: margin(budget) + Math.floor(context.budget / 4),
      });
      const chosen = roomy.dropped.length > context.dropped.length ? roomy : context;
      context = await this.compact(target, path, chosen, budget, undefined, signal);
    }
    if (context.overBudget) throw tooBig(context.tokens, context, budget, this.options.window, true);
    return context;
  };

  /**
   * Chapter 11's buildContext for the Runtime's adapter, refusing a context whose newest
   * interaction alone is over budget: no summary can help, so none is asked for.
   */
  readonly buildContext: CompactionCode["buildContext"] = (path, budget) => {
    const context = this.code.buildContext(path, budget);
    const newest = context.tokens - summaryTokens(context);
    if (context.overBudget && newest > context.budget) throw tooBig(newest, context, budget, this.options.window);
    return context;
  };

  /** `/compact [instructions]`: everything before the newest interaction becomes the summary. Returns the line to show. */
  async compactNow(target: CompactionTarget, instructions: string | undefined, signal?: AbortSignal): Promise<string> {
    const budget: ContextBudget = { contextWindow: 0, reserveTokens: 0, systemPromptTokens: 0, safetyMarginTokens: 0 };
    const path = target.path();
    const context = this.code.buildContext(path, budget);
    if (context.dropped.length === 0) return "（没有可以压缩的较早对话：最新的一轮总是原样保留）";
    const after = await this.compact(target, path, context, budget, instructions, signal, false);
    return compactedLine(context, after);
  }

  private async compact(
    target: CompactionTarget,
    path: SessionEntry[],
    context: BuiltContext,
    budget: ContextBudget,
    instructions: string | undefined,
    signal: AbortSignal | undefined,
    announce = true,
  ): Promise<BuiltContext> {
    const firstKeptEntryId = context.firstKeptEntryId;
    if (firstKeptEntryId === undefined) return context;
    const summary = await summarise(
      this.options.model,
      { previous: context.compaction, dropped: context.dropped, ...(instructions ? { instructions } : {}) },
      signal,
      this.code.parseCompactionSummary,
    );
    const entry = this.code.createCompactionEntry(
      path,
      {
        summary,
        firstKeptEntryId,
        tokensBefore: tokensBefore(context),
        files: compactionFiles(context.compaction, context.dropped),
      },
      target.newId(),
    );
    target.appendEntry(entry);
    const after = this.code.buildContext(target.path(), budget);
    if (announce) this.options.notes.write(`${compactedLine(context, after)}\n`);
    return after;
  }
}

function margin(budget: ContextBudget): number {
  return budget.safetyMarginTokens ?? defaultSafetyMargin(budget.contextWindow);
}

function summaryTokens(context: BuiltContext): number {
  return context.compaction === undefined ? 0 : estimateTokens(summaryMessage(context.compaction));
}

function tooBig(
  tokens: number,
  context: BuiltContext,
  budget: ContextBudget,
  window: WindowInForce | undefined,
  withSummary = false,
): CompactionError {
  if (context.budget <= 0) {
    return new CompactionError(
      `${CONTEXT_TOO_BIG}：窗口 ${window?.tokens} token 减去回答预留 ${window?.reserve}、系统提示与工具 ${budget.systemPromptTokens} 和估算余量，` +
        "已经不剩留给对话的 token：请用更大的 --context-window 或更小的 --reserve。",
    );
  }
  return new CompactionError(
    `${CONTEXT_TOO_BIG}：最新的一轮${withSummary ? "加上摘要" : ""}约 ${tokens} token，超过可用的 ${context.budget} token` +
      `（窗口 ${window?.tokens} − 回答预留 ${window?.reserve} − 系统提示与工具 ${budget.systemPromptTokens} − 估算余量）：` +
      "最新的一轮不能再拆，压缩帮不上；请把问题或工具结果拆小，或用 --context-window 换更大的窗口。",
  );
}

/** Tokens of the whole context before the compaction: what was kept plus what it replaces. */
function tokensBefore(context: BuiltContext): number {
  return context.dropped.reduce((sum, message) => sum + estimateTokens(message), context.tokens);
}

function compactedLine(before: BuiltContext, after: BuiltContext): string {
  return `（上下文已压缩：约 ${tokensBefore(before)} → ${after.tokens} token，${before.dropped.length} 条较早的消息换成了摘要）`;
}
