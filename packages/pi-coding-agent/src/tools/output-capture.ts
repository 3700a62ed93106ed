// Given (not a lab): a command's merged output, kept as a bounded tail; once it passes the limits,
// the output also goes to a temp file whose path the result names. That file is bounded too: a
// chatty command (`yes`, a verbose build) would otherwise fill the disk at hundreds of MB a second.
// It keeps the first and the last FULL_OUTPUT_KEEP.headBytes/tailBytes, with one line where it was cut.
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  countLines,
  countNewlines,
  formatSize,
  type OutputLimits,
  StreamTail,
  type Truncation,
  truncateTail,
} from "./truncate.js";

/**
 * Where full outputs go: one folder per process, made on first use, removed when the process
 * exits, also on a SIGINT, SIGTERM or SIGHUP that nobody else listens for: that signal is raised
 * again after the cleanup, so the process still ends the way it would have. Only SIGKILL leaves
 * the folder behind (in the system's temp folder).
 */
let outputDir: string | undefined;
let outputFiles = 0;

function nextOutputPath(): string {
  if (outputDir === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pi-bash-"));
    outputDir = dir;
    const remove = () => rmSync(dir, { recursive: true, force: true });
    process.once("exit", remove);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      const onSignal = () => {
        // Another listener owns this signal (a CLI that aborts the run and goes on): leave it to "exit".
        if (process.listenerCount(signal) > 1) return;
        process.off(signal, onSignal);
        remove();
        process.kill(process.pid, signal);
      };
      process.on(signal, onSignal);
    }
  }
  outputFiles += 1;
  return path.join(outputDir, `output-${outputFiles}.log`);
}

/** How much of a long output the temp file keeps: its head and its tail (16 MB in all). */
export const FULL_OUTPUT_KEEP = { headBytes: 8 * 1024 * 1024, tailBytes: 8 * 1024 * 1024 } as const;

export type FullOutputKeep = { headBytes: number; tailBytes: number };

/** What the notice says about the temp file's bound. */
export function fullOutputBound(keep: FullOutputKeep): string {
  return `at most ${formatSize(keep.headBytes + keep.tailBytes)}: the first ${formatSize(keep.headBytes)} and the last ${formatSize(keep.tailBytes)}`;
}

/** The line the temp file holds where it was cut. */
export function cutLine(droppedBytes: number): string {
  return `\n[... ${droppedBytes} bytes cut here: the full-output file keeps only the head and the tail ...]\n`;
}

export interface CapturedOutput {
  /** The tail that fits the limits, with a notice when lines were dropped. */
  text: string;
  truncation?: Truncation;
  /** The whole output, when it did not fit. */
  fullOutputPath?: string;
}

export class OutputCapture {
  private readonly tail: StreamTail;
  private file: WriteStream | undefined;
  private fullOutputPath: string | undefined;
  /** Bytes written to the file so far, up to keep.headBytes; after that the rest goes to fileTail. */
  private headWritten = 0;
  private fileTail: StreamTail | undefined;

  constructor(
    private readonly limits: OutputLimits,
    private readonly keep: FullOutputKeep = FULL_OUTPUT_KEEP,
  ) {
    this.tail = new StreamTail(limits.maxBytes);
  }

  /** Adds a chunk; false means the temp file is behind: pause the source until drained(). */
  write(chunk: Buffer): boolean {
    if (this.file === undefined && this.passesLimits(chunk)) {
      this.fullOutputPath = nextOutputPath();
      this.file = createWriteStream(this.fullOutputPath, { highWaterMark: 1024 * 1024 });
      // Nothing was dropped from the tail yet: it still holds the whole output so far.
      this.toFile(this.tail.bytes());
    }
    this.tail.push(chunk);
    return this.file === undefined ? true : this.toFile(chunk);
  }

  /** Writes the head of the output to the file; past keep.headBytes, keeps only the latest keep.tailBytes in memory. */
  private toFile(chunk: Buffer): boolean {
    const room = this.keep.headBytes - this.headWritten;
    const head = chunk.subarray(0, Math.max(0, room));
    this.headWritten += head.length;
    if (head.length < chunk.length) {
      this.fileTail ??= new StreamTail(this.keep.tailBytes);
      this.fileTail.push(chunk.subarray(head.length));
    }
    return head.length === 0 ? true : (this.file as WriteStream).write(head);
  }

  /** The kept tail of the output for the file, after a cut line when bytes were dropped between head and tail. */
  private fileEnd(): Buffer {
    if (this.fileTail === undefined) return Buffer.alloc(0);
    const all = this.fileTail.bytes();
    const kept = all.subarray(Math.max(0, all.length - this.keep.tailBytes));
    const dropped = this.fileTail.totalBytes - kept.length;
    return dropped === 0 ? kept : Buffer.concat([Buffer.from(cutLine(dropped)), kept]);
  }

  drained(): Promise<void> {
    return new Promise((resolve) => {
      if (this.file === undefined || !this.file.writableNeedDrain) resolve();
      else this.file.once("drain", resolve);
    });
  }

  /** Closes the temp file and returns the output as a tool reports it. */
  async finish(): Promise<CapturedOutput> {
    const file = this.file;
    if (file !== undefined) await new Promise<void>((resolve) => file.end(this.fileEnd(), resolve));
    const totalLines = this.tail.totalLines;
    const { text, truncation } = truncateTail(this.tail.bytes(), totalLines, this.limits);
    if (truncation === undefined || this.fullOutputPath === undefined) return { text };
    const cap = truncation.truncatedBy === "bytes" ? ` (${formatSize(this.limits.maxBytes)} limit)` : "";
    const notice = `[Showing lines ${truncation.firstLine}-${truncation.lastLine} of ${totalLines}${cap}. Full output: ${this.fullOutputPath} (kept until this agent process exits; ${fullOutputBound(this.keep)})]`;
    return { text: `${text}\n\n${notice}`, truncation, fullOutputPath: this.fullOutputPath };
  }

  private passesLimits(chunk: Buffer): boolean {
    const bytes = this.tail.totalBytes + chunk.length;
    const endsWithNewline = chunk.length > 0 ? chunk[chunk.length - 1] === 0x0a : false;
    const lines = countLines(this.tail.newlines + countNewlines(chunk), endsWithNewline, bytes);
    return bytes > this.limits.maxBytes || lines > this.limits.maxLines;
  }
}
