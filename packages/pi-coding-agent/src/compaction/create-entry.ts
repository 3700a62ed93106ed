// Making a compaction: a new entry appended under the leaf, never a rewrite of what is there. It
// may keep history only from the start of a whole interaction after the newest compaction's cut,
// so the context it leads to pairs every call with its result.
import type { CompactionEntry, SessionEntry } from "../session/entries.js";
import { newEntryId } from "../session/entries.js";
import { parseEntry } from "../session/parse-entry.js";
import { sinceNewestCompaction } from "./context.js";
import { groupInteractions } from "./interactions.js";
import { renderSummary } from "./render.js";
import type { CompactionFiles, CompactionSummary } from "./summary.js";

export interface CompactionFields {
  summary: CompactionSummary;
  firstKeptEntryId: string;
  tokensBefore: number;
  files: CompactionFiles;
}

/**
 * The compaction entry for `path` (root first): its parent is the path's last entry, its
 * `summary` is rendered from `fields.summary`. A `firstKeptEntryId` that is not the first message
 * of an interaction after the newest compaction's cut is one line naming it.
 */
export function createCompactionEntry(
  path: readonly SessionEntry[],
  fields: CompactionFields,
  id?: string,
  now: Date = new Date(),
): CompactionEntry {
  const leaf = path.at(-1);
  if (leaf === undefined) throw new Error("分支是空的：没有可以压缩的历史");
  const { messages, entryIds } = sinceNewestCompaction(path);
  const starts = groupInteractions(messages).map((group) => entryIds[group.start]);
  if (!starts.includes(fields.firstKeptEntryId)) {
    throw new Error(
      `firstKeptEntryId ${fields.firstKeptEntryId} 不是这条分支上（最新一次压缩之后）某段交互的第一条消息：只能从一段完整交互的开头保留`,
    );
  }
  const taken = new Set(path.map((entry) => entry.id));
  return parseEntry({
    type: "compaction",
    id: id ?? newEntryId((candidate) => taken.has(candidate)),
    parentId: leaf.id,
    timestamp: now.toISOString(),
    summary: renderSummary(fields.summary, fields.files),
    firstKeptEntryId: fields.firstKeptEntryId,
    tokensBefore: fields.tokensBefore,
    details: { ...fields.files, structured: fields.summary },
  }) as CompactionEntry;
}
