// Checkpoint 10 · 学习脚手架：SessionStore 接口与 InMemorySessionStore 的读取方法（entries、leafId、
// has、pathTo、messagesOnPath）和 restore() 已经写好；Lab 10.3 的 append() 与 commit() 先抛出
// “尚未实现”的临时错误。按 ① → ③ 完成 `// Lab 10.3` 注释描述的动作，删除临时错误，然后只运行
// 这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="内存存储" packages/pi-coding-agent/dist/test/10-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
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
    // Lab 10.3 ③：调用 this.commit(entry)（同步，在 append 被调用的这一刻完成），成功返回一个已
    // resolve 的 Promise，抛错就返回以这个错误 reject 的 Promise：紧跟父条目的追加不必等待。
    throw new Error("Lab 10.3 内存里的会话存储 尚未实现");
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
    // Lab 10.3 ①：parseEntry(entry) 做调用这一刻的快照（之后调用者改动 entry 不进入存储）。
    // Lab 10.3 ②：两项检查都在改动任何状态之前：id 已经在 this.ids 里就一行拒绝（点名 id）；parentId
    // 不是 null 又不在 this.ids 里就一行拒绝（点名缺的父 id）。通过后 push 进 this.committed、加进
    // this.ids，并返回这份副本（JSONL 存储要把它写进文件）。
    throw new Error("Lab 10.3 内存里的会话存储 尚未实现");
  }

  /** Takes entries already parsed from a file as they are: the tree diagnoses a broken branch when it is walked. */
  protected restore(entries: SessionEntry[]): void {
    for (const entry of entries) {
      this.committed.push(entry);
      this.ids.add(entry.id);
    }
  }
}
