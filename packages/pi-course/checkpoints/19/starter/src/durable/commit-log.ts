// Checkpoint 19 · 学习脚手架：提交日志。appendOnly()、appendCommit()（混沌测试的杀点在这里）、构造函数与 settled()
// 已经写好。Lab 19.1 的两处先抛出“尚未实现”的临时错误。按编号完成 `// Lab 19.1` 注释描述的动作，删除临时错误，
// 再完成 runtime-steps.ts 里 Lab 19.1 的一步，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="原子提交" packages/pi-coding-agent/dist/test/19-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// Lab 19.1 · 原子提交: the one change line of a durable file. Each commit is a batch of lines
// written with one write, after the commit before it has settled; it resolves only once its bytes
// are in the file (and, with `fsync`, on the disk), so a caller shows or uses what it committed only
// after that. A failed commit cuts the file back to the last committed byte, is reported once
// through `onFailure`, and the commits after it go on.
import { closeSync, constants, fsyncSync, openSync, statSync, truncateSync, writeSync } from "node:fs";
import { die, killHere } from "./kill-point.js";

export interface CommitLogOptions {
  /** fsync after each commit: survives a power cut, not only a crash (bench: docs/benchmarks.md). */
  fsync?: boolean;
  /** Told once per failed commit, with its error. */
  onFailure?: (error: Error) => void;
  /** Writes one batch (it may take its time: the next commit waits); default: appends to the file. Tests pass one that fails or is slow. */
  write?: (file: string, text: string) => void | Promise<void>;
}

/** Appends to the existing file only: a file removed meanwhile is a failure, not a new headerless file. */
const APPEND_ONLY = constants.O_WRONLY | constants.O_APPEND;

/** One write(2) of `data` at the end of the existing `file`. */
function appendOnly(file: string, data: string | Uint8Array): void {
  const fd = openSync(file, APPEND_ONLY);
  try {
    // A write may be short (a file size limit, a full disk): the rest is written until it fails.
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
}

/** The default write of a batch: one append, except at the chaos test's kill point (half of it, then SIGKILL). */
function appendCommit(file: string, text: string): void {
  if (killHere("commit")) {
    const bytes = Buffer.from(text, "utf8");
    appendOnly(file, bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))));
    die();
  }
  appendOnly(file, text);
}

export class CommitLog {
  /** Bytes of the file that are committed. */
  private committedBytes: number;
  /** A failed commit may have left bytes past `committedBytes`: cut them before the next write. */
  private dirty = false;
  /** The change line: the last commit, settled or not. */
  private line: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly options: CommitLogOptions = {},
  ) {
    this.committedBytes = statSync(file).size;
  }

  /** Commits `entries` whole or not at all, after every earlier commit; resolves once they are in the file. */
  commit(entries: readonly object[]): Promise<void> {
    // Lab 19.1 ①：一批是一段文本：每条记录 JSON.stringify 之后接一个 "\n"，连成一个字符串，用一次写入写出
    //   （整批或者全在，或者不算：读的一方 committedPart() 只认完整的行与完整的批）。
    // Lab 19.1 ②：一条变更线：这次写入排在 this.line（上一次提交，不论成败）之后：
    //   const done = this.line.then(() => this.writeBatch(text))；返回 done（调用者等它，才能用这批记录）；
    //   this.line 换成 done 但吞掉失败（done.catch(() => undefined)）：一次失败不能挡住后面的提交。
    throw new Error("Lab 19.1 原子提交 尚未实现");
  }

  /** Resolves when every commit so far has settled. */
  settled(): Promise<void> {
    return this.line;
  }

  private async writeBatch(text: string): Promise<void> {
    // Lab 19.1 ③：this.dirty（上一次提交失败过，可能留下了半行）→ 先 truncateSync(this.file, this.committedBytes)
    //   把文件截回到最后一次提交，再清掉 dirty：新的一批绝不接在残行后面。
    // Lab 19.1 ④：await (this.options.write ?? appendCommit)(this.file, text) 一次写出整批（写入可能是异步的：等它写完）；
    //   this.options.fsync 为 true 时再 syncFile(this.file)；成功后 this.committedBytes 加上 Buffer.byteLength(text)。
    // Lab 19.1 ⑤：写入（或 fsync）抛错 → 转成 Error，dirty = true，this.options.onFailure?.(错误) 报告一次（只在这里），
    //   然后抛出（这次 commit 被拒绝；变更线上后面的提交照常进行）。
    throw new Error("Lab 19.1 原子提交 尚未实现");
  }
}

function syncFile(file: string): void {
  const fd = openSync(file, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
