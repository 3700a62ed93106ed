// Given (not a lab): a file's lines one at a time, read in chunks, so memory stays bounded
// however large the file or its lines are; and a count of the lines that follow, which costs a
// scan of bytes rather than a step per line. Both stop at the size the file had when it was
// opened (a file being appended to still ends) and at an abort.
import type { FileHandle } from "node:fs/promises";
import { countLines, countNewlines } from "./truncate.js";

const CHUNK_BYTES = 1024 * 1024;

export interface FileLine {
  /** 1-based line number. */
  number: number;
  /** Byte length without the newline. */
  byteLength: number;
  /** Where the line starts in the file. */
  start: number;
  /** The line's bytes, or undefined when they were not kept (see readLines' `keep`). */
  bytes?: Buffer;
}

/** Where a read stops: the file's size at open, and the caller's abort. */
export interface ReadBounds {
  size: number;
  signal?: AbortSignal;
  /** The error an abort throws. */
  aborted: () => Error;
}

/**
 * Yields every line of `file` up to `bounds.size`. `keep(number)` says the caller wants the
 * line's bytes; a kept line is dropped again once it grows past `maxKeepBytes` (its byteLength is
 * still counted). A final newline ends the last line; it does not start another.
 */
export async function* readLines(
  file: FileHandle,
  keep: (lineNumber: number) => boolean,
  maxKeepBytes: number,
  bounds: ReadBounds,
): AsyncGenerator<FileLine> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let number = 1;
  let byteLength = 0;
  let start = 0;
  let position = 0;
  let parts: Buffer[] | undefined = keep(1) ? [] : undefined;
  const append = (part: Buffer) => {
    byteLength += part.length;
    if (parts === undefined) return;
    if (byteLength > maxKeepBytes) parts = undefined;
    else parts.push(Buffer.from(part));
  };
  for (;;) {
    const chunk = await readChunk(file, buffer, position, bounds);
    if (chunk.length === 0) break;
    let from = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, from)) {
      append(chunk.subarray(from, newline));
      yield { number, byteLength, start, ...(parts && { bytes: Buffer.concat(parts) }) };
      number += 1;
      byteLength = 0;
      start = position + newline + 1;
      parts = keep(number) ? [] : undefined;
      from = newline + 1;
    }
    append(chunk.subarray(from));
    position += chunk.length;
  }
  if (byteLength > 0) yield { number, byteLength, start, ...(parts && { bytes: Buffer.concat(parts) }) };
}

/** The number of lines from byte `from` to `bounds.size`. */
export async function countLinesFrom(file: FileHandle, from: number, bounds: ReadBounds): Promise<number> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let newlines = 0;
  let last = -1;
  for (let position = from; ; ) {
    const chunk = await readChunk(file, buffer, position, bounds);
    if (chunk.length === 0) break;
    newlines += countNewlines(chunk);
    last = chunk[chunk.length - 1] ?? -1;
    position += chunk.length;
  }
  return countLines(newlines, last === 0x0a, bounds.size - from);
}

async function readChunk(file: FileHandle, buffer: Buffer, position: number, bounds: ReadBounds): Promise<Buffer> {
  if (bounds.signal?.aborted) throw bounds.aborted();
  const length = Math.min(buffer.length, bounds.size - position);
  if (length <= 0) return buffer.subarray(0, 0);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
