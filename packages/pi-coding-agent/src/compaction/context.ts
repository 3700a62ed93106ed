// The context a request carries, projected from the session's immutable history: the newest
// compaction's summary, then the branch from its `firstKeptEntryId`, cut to the budget at whole
// interactions. Nothing is rewritten: compacting appends an entry, and building the context twice
// from the same path gives the same context.
import type { Message, ToolCall } from "@pi/core";
import { type AssistantMessage, toolCallsOf } from "@pi/core";
import type { CompactionEntry, SessionEntry } from "../session/entries.js";
import { copyJsonShapes } from "../session/json-copy.js";
import { interruptedResult } from "../session/session-context.js";
import { type ContextBudget, historyBudget, keepNewest } from "./budget.js";
import { groupInteractions } from "./interactions.js";
import { summaryMessage } from "./render.js";
import { estimateTokens } from "./tokens.js";

export interface BuiltContext {
  /** The newest compaction's summary message (if any) + the kept suffix; every call paired; shares nothing with the input. */
  messages: Message[];
  /** Tokens of `messages`. */
  tokens: number;
  /** window − system prompt − reserve − margin. */
  budget: number;
  /** True only when the newest interaction alone (with the summary) is over budget: it is still kept whole. */
  overBudget: boolean;
  /** Messages after the newest compaction's cut that did not fit: what the next compaction summarises. */
  dropped: Message[];
  /** Entry id of the first kept message (the first message of an interaction); undefined for an empty path. */
  firstKeptEntryId: string | undefined;
  /** The newest compaction on the path, if any. */
  compaction: CompactionEntry | undefined;
}

/** The messages a path holds from some entry on, each with the id of the entry it came from. */
export interface PathMessages {
  compaction: CompactionEntry | undefined;
  messages: Message[];
  entryIds: string[];
}

/**
 * The message entries of `path[from…]` (same references), in order. Calls still unanswered when
 * the next user or assistant message comes (or the path ends) get the aborted result chapter 10
 * gives them; anything else out of place is left for `groupInteractions` to name.
 */
export function messagesFrom(path: readonly SessionEntry[], from: number): Omit<PathMessages, "compaction"> {
  const messages: Message[] = [];
  const entryIds: string[] = [];
  let open: { assistant: AssistantMessage; id: string; calls: ToolCall[] } | undefined;
  const close = () => {
    for (const call of open?.calls ?? []) {
      messages.push(interruptedResult(call, (open as { assistant: AssistantMessage }).assistant));
      entryIds.push((open as { id: string }).id);
    }
    open = undefined;
  };
  for (let index = from; index < path.length; index += 1) {
    const entry = path[index] as SessionEntry;
    if (entry.type !== "message") continue;
    const { message } = entry;
    if (message.role === "toolResult") {
      if (open !== undefined) open.calls = open.calls.filter((call) => call.id !== message.toolCallId);
    } else {
      close();
      if (message.role === "assistant") open = { assistant: message, id: entry.id, calls: toolCallsOf(message) };
    }
    messages.push(message);
    entryIds.push(entry.id);
  }
  close();
  return { messages, entryIds };
}

/**
 * The newest compaction on `path` and the messages from its `firstKeptEntryId` on; without a
 * compaction, every message of the path. A `firstKeptEntryId` that is not on the path before its
 * compaction is one line naming both.
 */
export function sinceNewestCompaction(path: readonly SessionEntry[]): PathMessages {
  let at = path.length - 1;
  while (at >= 0 && path[at]?.type !== "compaction") at -= 1;
  if (at === -1) return { compaction: undefined, ...messagesFrom(path, 0) };
  const compaction = path[at] as CompactionEntry;
  const from = path.findIndex((entry, index) => index < at && entry.id === compaction.firstKeptEntryId);
  if (from === -1) {
    throw new Error(
      `compaction 条目 ${compaction.id} 的 firstKeptEntryId ${compaction.firstKeptEntryId} 不在这条分支上它之前的位置`,
    );
  }
  return { compaction, ...messagesFrom(path, from) };
}

/** The context of `path` (root first) within `budget`. */
export function buildContext(path: readonly SessionEntry[], budget: ContextBudget): BuiltContext {
  const available = historyBudget(budget);
  const { compaction, messages, entryIds } = sinceNewestCompaction(path);
  const groups = groupInteractions(messages);
  const summary = compaction === undefined ? undefined : summaryMessage(compaction);
  const summaryTokens = summary === undefined ? 0 : estimateTokens(summary);
  const size = (index: number) => {
    const group = groups[index] as { start: number; end: number };
    let tokens = 0;
    for (let at = group.start; at < group.end; at += 1) tokens += estimateTokens(messages[at] as Message);
    return tokens;
  };
  const kept = keepNewest(groups.length, size, available - summaryTokens);
  const cut = groups[kept.first]?.start ?? messages.length;
  const tokens = summaryTokens + kept.tokens;
  const suffix = messages.slice(cut);
  return {
    messages: summary === undefined ? suffix.map(copyJsonShapes) : [summary, ...suffix.map(copyJsonShapes)],
    tokens,
    budget: available,
    overBudget: tokens > available,
    dropped: messages.slice(0, cut).map(copyJsonShapes),
    firstKeptEntryId: entryIds[cut],
    compaction: structuredClone(compaction),
  };
}
