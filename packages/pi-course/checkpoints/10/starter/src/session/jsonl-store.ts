// Checkpoint 10 · 学习脚手架：JsonlSessionStore 继承你在实践 10.3 写的内存存储；create()、
// writable、readOnlyReason、flushed()、两段拒绝说明 tornTailReason()/writeFailureReason() 和显式修复
// dropTornTail() 已经写好。Lab 10.5 的 open() 与 append() 先抛出“尚未实现”的临时错误。按 ① → ③
// 完成 `// Lab 10.5` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="JSONL 存储" packages/pi-coding-agent/dist/test/10-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useConst: the labs assign these fields once written.
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
    // Lab 10.5 ①：readFile(file, "utf8") 连同 read 交给 recoverSession()（实践 10.4），用恢复出的会话头新建
    // store，restore() 已提交的条目；有残行（tornTail）时把 closedBecause 设为
    // tornTailReason(file, 残行的行号)：这个会话只读，新条目永远不会接在残行上。返回 store。
    throw new Error("Lab 10.5 JSONL 会话存储 尚未实现");
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
    // Lab 10.5 ②：closedBecause 有值时立即以 new Error(closedBecause) reject（失败过一次就永久关闭；
    // 每次一个新的 Error，消息就是那一行说明）。否则在调用这一刻 this.commit(entry)（实践 10.3：快照、检查、
    // 进内存）并 JSON.stringify 成一行（末尾 "\n"）；commit 抛错就以它的错误 reject，什么也不写，也不设
    // closedBecause（被拒的条目不关闭存储，之后的追加照常；关闭它的只有写入失败与残行）。
    // Lab 10.5 ③：把写入接到 this.writer 这条唯一的 Promise 链后面（FIFO：按调用顺序写）：轮到它时
    // closedBecause 已有值就同样以 new Error(closedBecause) reject；否则 appendFile(this.file, line,
    // { flag: APPEND_ONLY })。写入失败时把 closedBecause 设为 writeFailureReason(this.file, error)，再以
    // new Error(closedBecause) reject。this.writer 换成吞掉错误的那个 Promise（written.catch(() => undefined)），
    // 返回 written 本身：失败只由这次追加自己 reject，flushed() 照样 resolve（写完或失败都算），排在后面的
    // 追加轮到时自己看 closedBecause，各以一个新的 Error reject。
    throw new Error("Lab 10.5 JSONL 会话存储 尚未实现");
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
