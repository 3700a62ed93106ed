// The compaction rules as properties, over random sessions: branched trees of interactions whose
// assistants call tools in batches (results in random order, some never saved), earlier
// compactions made at random budgets, and a random budget for the context built at the end.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Message, ToolCall } from "@pi/core";
import fc from "fast-check";
import { buildContext } from "../src/compaction/context.js";
import { createCompactionEntry } from "../src/compaction/create-entry.js";
import { compactionFiles } from "../src/compaction/files.js";
import { groupInteractions } from "../src/compaction/interactions.js";
import type { SessionEntry } from "../src/session/entries.js";
import { pathTo } from "../src/session/session-tree.js";
import { structured } from "./compaction-fixture.js";
import { AT, entry } from "./session-fixture.js";

const RUNS = 1_000;

/** One step of a random session. */
type Step =
  | { kind: "interaction"; words: number; turns: { calls: number; order: number[]; saved: number; words: number }[] }
  | { kind: "branch"; at: number }
  | { kind: "compact"; budget: number };

const turn = fc.record({
  calls: fc.integer({ min: 0, max: 3 }),
  order: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
  saved: fc.integer({ min: 0, max: 3 }),
  words: fc.integer({ min: 0, max: 60 }),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("interaction" as const),
      words: fc.integer({ min: 0, max: 80 }),
      turns: fc.array(turn, { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("branch" as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("compact" as const), budget: fc.integer({ min: 0, max: 1500 }) }),
  },
);

const budgetOf = (history: number) => ({
  contextWindow: history + 300,
  reserveTokens: 200,
  systemPromptTokens: 100,
  safetyMarginTokens: 0,
});

/** The session the steps describe: every entry, and the leaf the conversation stands on. */
function session(steps: readonly Step[]): { entries: SessionEntry[]; leaf: string | null } {
  const entries: SessionEntry[] = [];
  let leaf: string | null = null;
  let next = 0;
  const id = () => (next++).toString(16).padStart(8, "0");
  const add = (message: Message) => {
    const made = entry(id(), leaf, message);
    entries.push(made);
    leaf = made.id;
  };
  for (const item of steps) {
    if (item.kind === "branch") {
      leaf = entries.length === 0 ? null : (entries[item.at % entries.length] as SessionEntry).id;
    } else if (item.kind === "compact") {
      if (leaf === null) continue;
      const path = pathTo(entries, leaf);
      const built = buildContext(path, budgetOf(item.budget));
      if (built.dropped.length === 0 || built.firstKeptEntryId === undefined) continue;
      const made = createCompactionEntry(
        path,
        {
          summary: structured(`第 ${entries.length} 条时的摘要`),
          firstKeptEntryId: built.firstKeptEntryId,
          tokensBefore: built.tokens,
          files: compactionFiles(built.compaction, built.dropped),
        },
        id(),
        new Date(AT),
      );
      entries.push(made);
      leaf = made.id;
    } else {
      add({ role: "user", content: `问题 ${"字".repeat(item.words)}`, timestamp: next });
      for (const { calls: count, order, saved, words } of item.turns) {
        const calls: ToolCall[] = Array.from({ length: count }, () => ({
          type: "toolCall",
          id: `call-${next++}`,
          name: "read",
          arguments: { path: `f${next}.ts` },
        }));
        add({
          role: "assistant",
          content: [{ type: "text", text: "x".repeat(words * 5) }, ...calls],
          stopReason: count > 0 ? "toolUse" : "stop",
          timestamp: next,
        });
        // Results in a random order; the last `count − saved` may never have been saved.
        const shuffled = calls
          .map((call, index) => ({ call, key: order[index] ?? 0 }))
          .sort((a, b) => a.key - b.key)
          .slice(0, Math.max(saved, count - 1));
        for (const { call } of shuffled) {
          add({
            role: "toolResult",
            toolCallId: call.id,
            toolName: call.name,
            content: [{ type: "text", text: "y".repeat(words * 3) }],
            isError: false,
            timestamp: next,
          });
        }
      }
    }
  }
  return { entries, leaf };
}

/** Why `messages` is not a valid request: a result before its call, a call left without a result. */
function pairingProblem(messages: readonly Message[]): string | undefined {
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === "toolResult") {
      if (!open.delete(message.toolCallId)) return `孤立的结果 ${message.toolCallId}`;
      continue;
    }
    if (open.size > 0) return `调用 ${[...open].join("、")} 没有结果`;
    open = new Set(
      message.role === "assistant" ? message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [],
    );
  }
  return open.size > 0 ? `调用 ${[...open].join("、")} 没有结果` : undefined;
}

test("压缩的性质：随机的分支会话、随机的工具批次与更早的压缩：调用都配对、最新的用户消息都在、不超预算（除非最新一段单独就超）、重建结果相同", () => {
  fc.assert(
    fc.property(
      fc.array(step, { minLength: 1, maxLength: 25 }),
      fc.integer({ min: 0, max: 2000 }),
      (steps, history) => {
        const { entries, leaf } = session(steps);
        if (leaf === null) return;
        const path = pathTo(entries, leaf);
        const built = buildContext(path, budgetOf(history));

        assert.equal(pairingProblem(built.messages), undefined, "每个 toolResult 跟着它的调用，每个调用都有结果");
        const users = path.flatMap((item) =>
          item.type === "message" && item.message.role === "user" ? [item.message] : [],
        );
        const newest = users.at(-1);
        if (newest !== undefined) {
          assert.ok(
            built.messages.some((message) => JSON.stringify(message) === JSON.stringify(newest)),
            "最新的用户消息在上下文里",
          );
        }
        const suffix = built.compaction === undefined ? built.messages : built.messages.slice(1);
        const kept = groupInteractions(suffix);
        assert.ok(built.tokens <= built.budget || kept.length <= 1, "超出预算时，保留的只有最新的一段交互");
        assert.equal(built.overBudget, built.tokens > built.budget, "overBudget 如实报告是否超出");
        assert.deepEqual(buildContext(path, budgetOf(history)), built, "同一条路径、同一个预算，重建结果相同");
      },
    ),
    { numRuns: RUNS },
  );
});
