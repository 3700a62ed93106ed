// Given (not a lab): a file's lines one at a time, read in chunks, so memory stays bounded
// however large the file or its lines are.
import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 1024 * 1024;

export interface FileLine {
  /** 1-based line number. */
  number: number;
  /** Byte length without the newline. */
  byteLength: number;
  /** The line's bytes, or undefined when they were not kept (see readLines' `keep`). */
  bytes?: Buffer;
}

/**
 * Yields every line of `file`. `keep(number)` says the caller wants the line's bytes; a kept
 * line is dropped again once it grows past `maxKeepBytes` (its byteLength is still counted).
 * A final newline ends the last line; it does not start another.
 */
export async function* readLines(
  file: FileHandle,
  keep: (lineNumber: number) => boolean,
  maxKeepBytes: number,
): AsyncGenerator<FileLine> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let number = 1;
  let byteLength = 0;
  let parts: Buffer[] | undefined = keep(1) ? [] : undefined;
  const append = (part: Buffer) => {
    byteLength += part.length;
    if (parts === undefined) return;
    if (byteLength > maxKeepBytes) parts = undefined;
    else parts.push(Buffer.from(part));
  };
  for (;;) {
    const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    let from = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, from)) {
      append(chunk.subarray(from, newline));
      yield { number, byteLength, ...(parts && { bytes: Buffer.concat(parts) }) };
      number += 1;
      byteLength = 0;
      parts = keep(number) ? [] : undefined;
      from = newline + 1;
    }
    append(chunk.subarray(from));
  }
  if (byteLength > 0) yield { number, byteLength, ...(parts && { bytes: Buffer.concat(parts) }) };
}
