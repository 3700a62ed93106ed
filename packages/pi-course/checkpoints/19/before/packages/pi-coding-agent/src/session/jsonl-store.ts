// The JSONL session store: the in-memory store, plus a file that only ever grows. Each append is
// checked and serialised when it is called and written by the instance's one FIFO writer, so
// the file holds the entries in call order and its old bytes stay an exact prefix. It fails
// closed: after an I/O failure the writer accepts nothing more, and a file whose last line was
// cut off opens read-only, so a new entry is never glued onto the torn bytes.
import { constants } from "node:fs";
import { appendFile, readFile, truncate, writeFile } from "node:fs/promises";
import type { SessionEntry, SessionHeader } from "./entries.js";
import { type EntryReader, recoverSession } from "./jsonl-recovery.js";
import { InMemorySessionStore } from "./memory-store.js";
import { checkEntry, parseHeader } from "./parse-entry.js";

/** Appends to an existing file only: a file removed meanwhile is a failure, not a new headerless file. */
const APPEND_ONLY = constants.O_WRONLY | constants.O_APPEND;

function tornTailReason(file: string, line: number): string {
  return `${file} 第 ${line} 行没有写完（没有换行结尾）：为了不把新条目接在残行上，这个会话只读，截掉残行（dropTornTail）后才能追加`;
}

function writeFailureReason(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? "I/O 错误";
  return `${file} 写入失败（${code}）：这个会话不再接受追加；已提交的条目仍在文件里，修好磁盘或权限后重新打开`;
}

export class JsonlSessionStore extends InMemorySessionStore {
  readonly file: string;
  /** Why this store accepts no appends (a failed write, a torn tail), once it does not. */
  private closedBecause: string | undefined;
  /** Resolves when every append so far has been written (or failed). */
  private writer: Promise<void> = Promise.resolve();

  private constructor(file: string, header: SessionHeader) {
    super(header);
    this.file = file;
  }

  /** A new session file holding `header`; an existing file is never overwritten. */
  static async create(file: string, header: SessionHeader): Promise<JsonlSessionStore> {
    const checked = parseHeader(header);
    await writeFile(file, `${JSON.stringify(checked)}\n`, { flag: "wx" });
    return new JsonlSessionStore(file, checked);
  }

  /** Reopens `file` with every committed entry (each line read by `read`); read-only when its last line was cut off. */
  static async open(file: string, read: EntryReader = checkEntry): Promise<JsonlSessionStore> {
    const recovered = recoverSession(await readFile(file, "utf8"), file, read);
    const store = new JsonlSessionStore(file, recovered.header);
    store.restore(recovered.entries);
    if (recovered.tornTail !== undefined) store.closedBecause = tornTailReason(file, recovered.tornTail.line);
    return store;
  }

  /** Whether appends are accepted: false after an I/O failure or for a file with a torn tail. */
  get writable(): boolean {
    return this.closedBecause === undefined;
  }

  /** The reason appends are refused, if they are. */
  get readOnlyReason(): string | undefined {
    return this.closedBecause;
  }

  override append(entry: SessionEntry): Promise<void> {
    if (this.closedBecause !== undefined) return Promise.reject(new Error(this.closedBecause));
    let line: string;
    try {
      line = `${JSON.stringify(this.commit(entry))}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    const written = this.writer.then(async () => {
      if (this.closedBecause !== undefined) throw new Error(this.closedBecause);
      try {
        await appendFile(this.file, line, { flag: APPEND_ONLY });
      } catch (error) {
        this.closedBecause = writeFailureReason(this.file, error);
        throw new Error(this.closedBecause);
      }
    });
    this.writer = written.catch(() => undefined);
    return written;
  }

  /** Resolves once every append made so far is written or has failed. */
  flushed(): Promise<void> {
    return this.writer;
  }
}

/**
 * Cuts the torn tail off `file` (the bytes after its last newline, which were never committed),
 * after checking that everything before it recovers; returns whether there was one. This is
 * the explicit repair that makes a read-only session writable again.
 */
export async function dropTornTail(file: string): Promise<boolean> {
  const recovered = recoverSession(await readFile(file, "utf8"), file);
  if (recovered.tornTail === undefined) return false;
  await truncate(file, recovered.committedBytes);
  return true;
}
