// The model (and thinking level) in force is a fact of the branch, derived the way Pi derives it:
// walking back from the leaf, the newest `model_change` entry, or the newest reply that names who
// answered it (an errored or aborted reply is no choice), wins. Entries on other branches, however
// new, say nothing about this one. A change is recorded as Pi's own entry, and only when the model
// that answered a turn is not the one in force before it.
import {
  type ModelChangeEntry,
  newEntryId,
  type SessionEntry,
  type ThinkingLevelChangeEntry,
} from "../session/entries.js";
import { answeredBy, isReply } from "./answered.js";
import { physicalId } from "./catalogue.js";

/** Pi's thinking levels; a branch with no `thinking_level_change` is at "off". */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;

function chosenBy(entry: SessionEntry): string | undefined {
  if (entry.type === "model_change") return physicalId(entry.provider, entry.modelId);
  // A reply names who answered it; an errored or aborted one is no choice (the branch stays where it was).
  if (entry.type !== "message" || !isReply(entry.message)) return undefined;
  return answeredBy(entry.message);
}

/** The physical id in force at the end of `path` (root → leaf), or undefined when the branch never named one. */
export function modelInForce(path: readonly SessionEntry[]): string | undefined {
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const chosen = chosenBy(path[index] as SessionEntry);
    if (chosen !== undefined) return chosen;
  }
  return undefined;
}

/** The thinking level in force at the end of `path`: the newest `thinking_level_change`, else "off". */
export function thinkingLevelInForce(path: readonly SessionEntry[]): string {
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const entry = path[index] as SessionEntry;
    if (entry.type === "thinking_level_change") return entry.thinkingLevel;
  }
  return "off";
}

/** Pi's `model_change` entry for physical id `id` under `parentId`. */
export function modelChangeEntry(
  id: string,
  parentId: string | null,
  entryId: string = newEntryId(),
  now: Date = new Date(),
): ModelChangeEntry {
  const slash = id.indexOf("/");
  return {
    type: "model_change",
    id: entryId,
    parentId,
    timestamp: now.toISOString(),
    provider: id.slice(0, slash),
    modelId: id.slice(slash + 1),
  };
}

/** Pi's `thinking_level_change` entry under `parentId`. */
export function thinkingLevelChangeEntry(
  thinkingLevel: string,
  parentId: string | null,
  entryId: string = newEntryId(),
  now: Date = new Date(),
): ThinkingLevelChangeEntry {
  return { type: "thinking_level_change", id: entryId, parentId, timestamp: now.toISOString(), thinkingLevel };
}

/**
 * The `model_change` a turn calls for, to go after its messages: `after` (who answered it) when it
 * is not `before` (the model in force before the turn); none when nothing answered (a failed turn,
 * a routing failure) or the model stayed the same.
 */
export function changeAfterTurn(
  before: string | undefined,
  after: string | undefined,
  parentId: string | null,
  entryId?: string,
): ModelChangeEntry | undefined {
  if (after === undefined || after === before) return undefined;
  return modelChangeEntry(after, parentId, entryId);
}
