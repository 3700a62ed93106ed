// The session store of a durable run: chapter 10's tree in memory, its file written through the
// commit log. An entry is one commit, except a durable entry with `batch: k`: it and the next
// k − 1 entries appended are written together, whole or not at all (a user prompt and its task).
// Opening cuts a torn tail off (the bytes a crash left after the last commit) before anything is
// appended, so a new line is never glued onto them; what was committed is never rewritten.
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "../session/entries.js";
import type { EntryReader } from "../session/jsonl-recovery.js";
import { writeFailureReason } from "../session/jsonl-store.js";
import { InMemorySessionStore } from "../session/memory-store.js";
import { checkEntry, parseHeader } from "../session/parse-entry.js";
import { CommitLog, type CommitLogOptions } from "./commit-log.js";
import { committedPart } from "./committed-part.js";
import { asDurable, checkDurableEntry, isDurableEntry } from "./records.js";

/** The in-memory tree that also takes durable entries (chapter 10's parser knows none). */
export class DurableMemoryStore extends InMemorySessionStore {
  /** The last entry appended that is not a durable record: records annotate entries, they are never the leaf. */
  override leafId(): string | null {
    const entries = this.entries();
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const entry = entries[index] as SessionEntry;
      if (asDurable(entry) === undefined) return entry.id;
    }
    return null;
  }

  protected override commit(entry: SessionEntry): SessionEntry {
    const durable = asDurable(entry);
    if (durable === undefined) return super.commit(entry);
    if (this.has(durable.id)) throw new Error(`会话里已经有 id 为 ${durable.id} 的条目：这次追加被拒绝`);
    const copy = structuredClone(checkDurableEntry(durable));
    this.restore([copy as never]);
    return copy as never;
  }
}

export class DurableSessionStore extends DurableMemoryStore {
  private readonly log: CommitLog;
  private held: { size: number; entries: SessionEntry[] } | undefined;
  /** Bytes a crash left after the last commit, cut off when the file was opened. */
  tornBytesDropped = 0;

  private constructor(
    readonly file: string,
    header: SessionHeader,
    options: CommitLogOptions,
  ) {
    super(header);
    this.log = new CommitLog(file, options);
  }

  /** A new durable session file holding `header`; an existing file is never overwritten. */
  static async create(file: string, header: SessionHeader, options: CommitLogOptions = {}) {
    const checked = parseHeader(header);
    writeFileSync(file, `${JSON.stringify(checked)}\n`, { flag: "wx" });
    return new DurableSessionStore(file, checked, options);
  }

  /** Reopens `file` with its committed entries; a torn tail is cut off first. */
  static async open(file: string, read: EntryReader = checkEntry, options: CommitLogOptions = {}) {
    const part = committedPart(readFileSync(file, "utf8"), file);
    const [first, ...rest] = part.values;
    if (first === undefined)
      throw new Error(`${file} 没有已提交的会话头：它不是会话文件，或者第一行还没写完就被打断了`);
    if (part.tornBytes > 0) truncateSync(file, part.bytes);
    const store = new DurableSessionStore(file, parseHeader(first), options);
    store.tornBytesDropped = part.tornBytes;
    store.restore(rest.map((value) => (isDurableEntry(value) ? (checkDurableEntry(value) as never) : read(value))));
    return store;
  }

  override append(entry: SessionEntry): Promise<void> {
    let kept: SessionEntry;
    try {
      kept = this.commit(entry);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.held !== undefined) {
      this.held.entries.push(kept);
      if (this.held.entries.length < this.held.size) return Promise.resolve();
      const batch = this.held.entries;
      this.held = undefined;
      return this.commitBatch(batch);
    }
    const size = asDurable(kept)?.data.batch ?? 1;
    if (size > 1) {
      this.held = { size, entries: [kept] };
      return Promise.resolve();
    }
    return this.commitBatch([kept]);
  }

  /** One commit; a failure says which file and what failed, as chapter 10's store does. */
  private commitBatch(entries: SessionEntry[]): Promise<void> {
    return this.log.commit(entries).catch((error: unknown) => {
      throw new Error(writeFailureReason(this.file, error), { cause: error });
    });
  }

  /** Resolves once every commit so far has settled. */
  flushed(): Promise<void> {
    return this.log.settled();
  }
}
