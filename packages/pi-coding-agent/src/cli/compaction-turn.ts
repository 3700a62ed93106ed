// Compaction in tiny-pi, on chapter 11's functions. Before each model request the context is
// built from the session's active path (buildContext: the newest compaction's summary, then the
// kept suffix, whole interactions only). When older messages no longer fit, one summarisation
// request replaces them: the `compaction` entry is appended to the session, the context rebuilt,
// and one line tells the tokens before and after. `/compact [instructions]` does it on demand,
// keeping only the newest interaction. A failed or aborted summarisation appends nothing.
import { type Message, type Model, type ModelRequest, userMessage } from "@pi/core";
import {
  type BuiltContext,
  type ContextBudget,
  compactionFiles,
  defaultSafetyMargin,
  estimateTokens,
  summaryMessage,
} from "../compaction/index.js";
import type { SessionEntry } from "../session/entries.js";
import { type CompactionCode, courseCompactionCode } from "./compaction-code.js";
import { CONTEXT_TOO_BIG, CompactionError } from "./compaction-error.js";
import type { WindowInForce } from "./context-window.js";
import { summarise } from "./summarise.js";

/** What a compaction reads and writes: the session's active path, and where the entry goes. */
export interface CompactionSession {
  /** Root → leaf, including entries not written yet. */
  path(): SessionEntry[];
  /** Appends `entry` under the leaf; it becomes the leaf. */
  appendEntry(entry: SessionEntry): void;
  /** An entry id the session does not hold yet. */
  newId(): string;
}

export interface CompactorOptions {
  /** The model that summarises: the same one, without the session's recording. */
  model: Model;
  session: CompactionSession;
  window: WindowInForce | undefined;
  /** Where the one line of each compaction goes. */
  notes: { write(text: string): unknown };
  /** Chapter 11's code: the course's unless --from gives a learner's. */
  code?: CompactionCode;
}

/** Without a known window nothing is dropped: the context is still projected through earlier compactions. */
const NO_WINDOW = Number.MAX_SAFE_INTEGER;

export class Compactor {
  private readonly code: CompactionCode;

  constructor(private readonly options: CompactorOptions) {
    this.code = options.code ?? courseCompactionCode;
  }

  /** The messages to send for `request`: compacting first when the older part no longer fits. */
  async fit(request: ModelRequest, signal?: AbortSignal): Promise<Message[]> {
    const budget = this.budgetFor(request);
    let context = this.code.buildContext(this.options.session.path(), budget);
    // The newest interaction alone over budget: no summary can help, so none is asked for.
    const newest = context.tokens - summaryTokens(context);
    if (context.overBudget && newest > context.budget) throw tooBig(newest, context, budget, this.options.window);
    // The cut leaves a quarter of the budget for the summary. Each compaction moves it forward, so
    // this ends; a second round comes only when the summary took more than that room from a kept
    // interaction: that one is summarised too, never silently left out.
    while (context.dropped.length > 0) {
      const path = this.options.session.path();
      const roomy = this.code.buildContext(path, {
        ...budget,
        safetyMarginTokens: margin(budget) + Math.floor(context.budget / 4),
      });
      const cut = roomy.dropped.length > context.dropped.length ? roomy : context;
      context = await this.compact(path, cut, budget, undefined, signal);
    }
    if (context.overBudget) throw tooBig(context.tokens, context, budget, this.options.window, true);
    return context.messages;
  }

  /** `/compact [instructions]`: everything before the newest interaction becomes the summary. Returns the line to show. */
  async compactNow(instructions: string | undefined, signal?: AbortSignal): Promise<string> {
    const budget: ContextBudget = { contextWindow: 0, reserveTokens: 0, systemPromptTokens: 0, safetyMarginTokens: 0 };
    const path = this.options.session.path();
    const context = this.code.buildContext(path, budget);
    if (context.dropped.length === 0) return "（没有可以压缩的较早对话：最新的一轮总是原样保留）";
    const after = await this.compact(path, context, budget, instructions, signal, false);
    return compactedLine(context, after);
  }

  private async compact(
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
      this.options.session.newId(),
    );
    this.options.session.appendEntry(entry);
    const after = this.code.buildContext(this.options.session.path(), budget);
    if (announce) this.options.notes.write(`${compactedLine(context, after)}\n`);
    return after;
  }

  private budgetFor(request: ModelRequest): ContextBudget {
    const window = this.options.window;
    // The system prompt and the tools' schemas are sent with every request: both count.
    const fixed = `${request.systemPrompt ?? ""}\n${JSON.stringify(request.tools)}`;
    return {
      contextWindow: window?.tokens ?? NO_WINDOW,
      reserveTokens: window?.reserve ?? 0,
      systemPromptTokens: estimateTokens(userMessage(fixed, 0)),
    };
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
