// Test helpers for compaction: a long session of interactions, each a question, one assistant
// turn with two parallel calls whose results come back in reverse order, and an answer; plus
// compaction entries built by hand, ours and Pi-shaped.
import type { Message, ToolCall } from "@pi/core";
import type { CompactionSummary } from "../src/compaction/summary.js";
import type { CompactionEntry, MessageEntry, SessionEntry } from "../src/session/entries.js";
import { AT, entry } from "./session-fixture.js";

/** The id of message `k` of interaction `n`: 8 hex digits, `c` + n + k. */
export function entryId(n: number, k: number): string {
  return `c${n.toString(16).padStart(6, "0")}${k.toString(16)}`;
}

/**
 * Interaction `n` under `parentId`: user, assistant with calls read(file-n) and edit(file-n),
 * the edit's result before the read's, then an answer. `words` pads each message's text.
 */
export function interaction(n: number, parentId: string | null, words = 40): MessageEntry[] {
  const pad = " lorem".repeat(words);
  const calls: ToolCall[] = [
    { type: "toolCall", id: `call-${n}-read`, name: "read", arguments: { path: `src/file-${n}.ts` } },
    { type: "toolCall", id: `call-${n}-edit`, name: "edit", arguments: { path: `src/file-${n}.ts`, edits: [] } },
  ];
  const result = (call: ToolCall): Message => ({
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: `${call.name} done${pad}` }],
    isError: false,
    timestamp: n * 10 + 3,
  });
  const messages: Message[] = [
    { role: "user", content: `第 ${n} 个问题${pad}`, timestamp: n * 10 },
    {
      role: "assistant",
      content: [{ type: "text", text: `我先读再改${pad}` }, ...calls],
      stopReason: "toolUse",
      timestamp: n * 10 + 1,
    },
    result(calls[1] as ToolCall),
    result(calls[0] as ToolCall),
    {
      role: "assistant",
      content: [{ type: "text", text: `第 ${n} 个做完了${pad}` }],
      stopReason: "stop",
      timestamp: n * 10 + 4,
    },
  ];
  return messages.map((message, k) => entry(entryId(n, k), k === 0 ? parentId : entryId(n, k - 1), message));
}

/** Interactions `from`…`to` (inclusive) as one chain under `parentId`. */
export function interactions(from: number, to: number, parentId: string | null = null, words = 40): SessionEntry[] {
  const chain: SessionEntry[] = [];
  for (let n = from; n <= to; n += 1) chain.push(...interaction(n, chain.at(-1)?.id ?? parentId, words));
  return chain;
}

export function structured(goal = "把 greet.ts 的问候改成中文"): CompactionSummary {
  return {
    goal,
    constraints: ["只改 greet()"],
    done: ["读了 greet.ts"],
    inProgress: ["改 farewell()"],
    blocked: [],
    decisions: ["用 edit 而不是 write"],
    nextSteps: ["跑测试"],
    criticalContext: ["greet() 在 src/greet.ts"],
  };
}

/** Our compaction entry, by hand: `summary` text and structured details. */
export function ourCompaction(
  id: string,
  parentId: string,
  firstKeptEntryId: string,
  summary = "之前的摘要",
): CompactionEntry {
  return {
    type: "compaction",
    id,
    parentId,
    timestamp: AT,
    summary,
    firstKeptEntryId,
    tokensBefore: 5000,
    details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"], structured: structured() },
  };
}

/** A compaction as upstream Pi writes it: free summary text, details with the files only. */
export function piCompaction(id: string, parentId: string, firstKeptEntryId: string): CompactionEntry {
  return {
    type: "compaction",
    id,
    parentId,
    timestamp: AT,
    summary: "## Goal\nTranslate the greetings.\n\n## Progress\n- [x] read greet.ts",
    firstKeptEntryId,
    tokensBefore: 48213,
    details: { readFiles: ["src/greet.ts"], modifiedFiles: ["src/farewell.ts"] },
  };
}

/** Every toolResult follows its call within the same assistant turn, and every call has its result. */
export function pairingProblem(messages: readonly Message[]): string | undefined {
  let open = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "toolResult") {
      if (!open.delete(message.toolCallId)) return `第 ${index + 1} 条是孤立的结果 ${message.toolCallId}`;
      continue;
    }
    if (open.size > 0) return `调用 ${[...open].join("、")} 没有结果`;
    open = new Set(
      message.role === "assistant"
        ? message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []))
        : [],
    );
  }
  return open.size > 0 ? `调用 ${[...open].join("、")} 没有结果` : undefined;
}
