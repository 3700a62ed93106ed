// The tree of a session: entries link to their parents by id, and a branch is the chain from a
// root to a leaf. Only the chain asked for is diagnosed: a broken sibling branch (a parent that
// is missing, say, after a hand edit) does not stop you from walking a sound one.
import type { SessionEntry } from "./entries.js";
import { copyJsonShapes } from "./json-copy.js";

/** Entries by id; an id that occurs twice anywhere is one line naming it. */
export function indexById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const entry of entries) {
    if (byId.has(entry.id)) throw new Error(`会话里有两个 id 为 ${entry.id} 的条目：id 必须唯一`);
    byId.set(entry.id, entry);
  }
  return byId;
}

/**
 * The chain root → `leafId` (deep copies, root first). A leaf that is not there, a parent that
 * is missing on the chain, or a chain that loops is one line naming the entry.
 */
export function pathTo(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
  const byId = indexById(entries);
  const chain: SessionEntry[] = [];
  const seen = new Set<string>();
  let id: string | null = leafId;
  while (id !== null) {
    const entry = byId.get(id);
    if (entry === undefined) {
      const child = chain.at(-1);
      throw new Error(
        child === undefined
          ? `会话里没有 id 为 ${leafId} 的条目`
          : `条目 ${child.id} 的父条目 ${id} 不在会话里：这条分支断了`,
      );
    }
    if (seen.has(id)) throw new Error(`从 ${leafId} 往回走又回到了 ${id}：parentId 成环`);
    seen.add(id);
    chain.push(entry);
    id = entry.parentId;
  }
  return copyEntries(chain.reverse());
}

/** Deep copies of entries that are already in a store (see json-copy.ts). */
export function copyEntries(entries: readonly SessionEntry[]): SessionEntry[] {
  return entries.map(copyJsonShapes);
}
