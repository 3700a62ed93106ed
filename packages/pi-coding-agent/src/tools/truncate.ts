// Given (not a lab): the output limits every tool shares, and a bounded tail of a byte stream.

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
}

/** What a tool cut from its output; `details.truncation` carries it. */
export interface Truncation {
  truncatedBy: "lines" | "bytes";
  totalLines: number;
  outputLines: number;
  firstLine: number;
  lastLine: number;
}

/** 51200 → "50 KB", 1536 → "1.5 KB", 100 → "100 B". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} KB`;
  return `${trim(bytes / (1024 * 1024))} MB`;
}

function trim(value: number): string {
  return value.toFixed(1).replace(/\.0$/, "");
}

/** Lines of output text: a final newline ends the last line rather than starting another. */
export function countLines(newlines: number, endsWithNewline: boolean, bytes: number): number {
  if (bytes === 0) return 0;
  return endsWithNewline ? newlines : newlines + 1;
}

/**
 * Keeps only the end of a stream, enough for truncateTail() to cut `maxBytes` on a line boundary
 * (at most one chunk more), while counting everything that went through: memory stays bounded
 * for any amount of output.
 */
export class StreamTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  totalBytes = 0;
  newlines = 0;
  private lastByte = -1;

  private readonly keepBytes: number;

  constructor(maxBytes: number) {
    // Two more bytes: a cut stream then always shows as over the limit, never as a whole first line.
    this.keepBytes = maxBytes + 2;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.kept += chunk.length;
    this.totalBytes += chunk.length;
    this.newlines += countNewlines(chunk);
    if (chunk.length > 0) this.lastByte = chunk[chunk.length - 1] ?? -1;
    while (this.chunks.length > 1 && this.kept - (this.chunks[0]?.length ?? 0) >= this.keepBytes) {
      this.kept -= this.chunks.shift()?.length ?? 0;
    }
  }

  get totalLines(): number {
    return countLines(this.newlines, this.lastByte === 0x0a, this.totalBytes);
  }

  /** The kept end of the stream; all of it while it is short. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export function countNewlines(chunk: Buffer): number {
  // A plain loop: for output made of short lines it is several times faster than indexOf().
  let count = 0;
  for (let index = 0; index < chunk.length; index += 1) if (chunk[index] === 0x0a) count += 1;
  return count;
}

export interface TailText {
  text: string;
  /** Set when lines or bytes were dropped from the start. */
  truncation?: Truncation;
}

/**
 * The last `maxLines` lines of `tail` within `maxBytes`, for a stream of `totalLines` lines whose
 * end `tail` is (a StreamTail keeps enough of it). A single last line longer than `maxBytes`
 * keeps its end, cut on a UTF-8 boundary.
 */
export function truncateTail(tail: Buffer, totalLines: number, limits: OutputLimits): TailText {
  const body = tail[tail.length - 1] === 0x0a ? tail.subarray(0, tail.length - 1) : tail;
  let start = body.length;
  let end = body.length;
  let lines = 0;
  let truncatedBy: Truncation["truncatedBy"] | undefined;
  while (totalLines > 0) {
    if (lines === limits.maxLines) {
      truncatedBy = "lines";
      break;
    }
    const newline = end === 0 ? -1 : body.lastIndexOf(0x0a, end - 1);
    if (body.length - (newline + 1) > limits.maxBytes) {
      truncatedBy = "bytes";
      if (lines === 0) {
        // Not even the last line fits: keep its end, starting on a whole UTF-8 character.
        start = utf8Start(body, body.length - limits.maxBytes);
        lines = 1;
      }
      break;
    }
    start = newline + 1;
    lines += 1;
    if (newline === -1) break;
    end = newline;
  }
  const text = body.subarray(start).toString("utf8");
  if (truncatedBy === undefined) return { text };
  return {
    text,
    truncation: {
      truncatedBy,
      totalLines,
      outputLines: lines,
      firstLine: totalLines - lines + 1,
      lastLine: totalLines,
    },
  };
}

/** The first index at or after `at` that starts a UTF-8 character. */
function utf8Start(bytes: Buffer, at: number): number {
  let index = at;
  while (index < bytes.length && ((bytes[index] ?? 0) & 0xc0) === 0x80) index += 1;
  return index;
}
