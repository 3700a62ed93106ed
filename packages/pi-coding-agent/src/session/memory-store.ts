// The in-memory session store: the tree of one session, appended to in order. It is also what
// the JSONL store keeps in memory, so both answer the same questions the same way.
import type { Message } from "@pi/core";
import type { SessionEntry, SessionHeader } from "./entries.js";
import { parseEntry } from "./parse-entry.js";
import { messagesOnPath } from "./session-context.js";
import { copyEntries, pathTo } from "./session-tree.js";

export interface SessionStore {
  readonly header: SessionHeader;
  /** Every committed entry, in the order appended (copies). */
  entries(): SessionEntry[];
  /** The last entry appended: where the conversation stands unless another leaf is chosen. */
  leafId(): string | null;
  has(id: string): boolean;
  /** Commits `entry` as it is at call time; appends commit in call order. */
  append(entry: SessionEntry): Promise<void>;
  pathTo(leafId: string): SessionEntry[];
  messagesOnPath(leafId: string): Message[];
}

export class InMemorySessionStore implements SessionStore {
  readonly header: SessionHeader;
  private readonly committed: SessionEntry[] = [];
  private readonly ids = new Set<string>();

  constructor(header: SessionHeader) {
    this.header = structuredClone(header);
  }

  entries(): SessionEntry[] {
    return copyEntries(this.committed);
  }

  leafId(): string | null {
    return this.committed.at(-1)?.id ?? null;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  append(entry: SessionEntry): Promise<void> {
    try {
      this.commit(entry);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  pathTo(leafId: string): SessionEntry[] {
    return pathTo(this.committed, leafId);
  }

  messagesOnPath(leafId: string): Message[] {
    return messagesOnPath(this.committed, leafId);
  }

  /**
   * Checks and commits `entry` synchronously, so an append made right after its parent's sees
   * it; returns the copy it keeps. A rejected entry leaves the store as it was.
   */
  protected commit(entry: SessionEntry): SessionEntry {
    const copy = parseEntry(entry);
    if (this.ids.has(copy.id)) throw new Error(`会话里已经有 id 为 ${copy.id} 的条目：这次追加被拒绝`);
    if (copy.parentId !== null && !this.ids.has(copy.parentId)) {
      throw new Error(`条目 ${copy.id} 的父条目 ${copy.parentId} 不在会话里：这次追加被拒绝`);
    }
    this.committed.push(copy);
    this.ids.add(copy.id);
    return copy;
  }

  /** Takes entries already parsed from a file as they are: the tree diagnoses a broken branch when it is walked. */
  protected restore(entries: SessionEntry[]): void {
    for (const entry of entries) {
      this.committed.push(entry);
      this.ids.add(entry.id);
    }
  }
}
