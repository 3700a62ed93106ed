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
    const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
    const done = this.line.then(() => this.writeBatch(text));
    this.line = done.catch(() => undefined);
    return done;
  }

  /** Resolves when every commit so far has settled. */
  settled(): Promise<void> {
    return this.line;
  }

  private async writeBatch(text: string): Promise<void> {
    try {
      if (this.dirty) {
        truncateSync(this.file, this.committedBytes);
        this.dirty = false;
      }
      await (this.options.write ?? appendCommit)(this.file, text);
      if (this.options.fsync === true) syncFile(this.file);
      this.committedBytes += Buffer.byteLength(text);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.dirty = true;
      this.options.onFailure?.(failure);
      throw failure;
    }
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
