// Given (checkpoint 14 adds it; tiny-pi's --resume/--fork and the eval's resumed tasks both use it):
// a run stopped hard in the middle of a tool batch leaves a branch ending with calls that no result
// answers. Before a Runtime opens there, each gets an "interrupted" result entry, so no call ever
// reaches a model as an orphan.
import type { AssistantMessage, ToolResultMessage } from "@pi/core";
import { toolCallsOf } from "@pi/core";
import { messageEntry, newEntryId, type SessionEntry } from "./entries.js";
import type { SessionStore } from "./memory-store.js";
import { interruptedResult } from "./session-context.js";

/** Interrupted results for the calls the branch ends with unanswered, in call order. */
export function openCallRepairs(
  branch: readonly SessionEntry[],
  interrupted: typeof interruptedResult = interruptedResult,
): ToolResultMessage[] {
  const messages = branch.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
  const answered = new Set<string>();
  let index = messages.length - 1;
  for (let message = messages[index]; message?.role === "toolResult"; message = messages[--index]) {
    answered.add(message.toolCallId);
  }
  const assistant = messages[index];
  if (assistant?.role !== "assistant") return [];
  return toolCallsOf(assistant as AssistantMessage)
    .filter((call) => !answered.has(call.id))
    .map((call) => interrupted(call, assistant));
}

/** Appends `results` under `leaf`, each under the one before; resolves the new leaf. */
export async function appendUnder(store: SessionStore, leaf: string, results: readonly ToolResultMessage[]) {
  let at = leaf;
  for (const result of results) {
    const entry = messageEntry(
      result,
      at,
      newEntryId((candidate) => store.has(candidate)),
    );
    await store.append(entry);
    at = entry.id;
  }
  return at;
}
