// Recovering a session file: what a crash can leave is a last line without its newline. Only a
// line that ends with "\n" is committed; blank lines are ignored; the tail after the last
// newline is a write that was cut off, reported and ignored. A committed line that is not JSON,
// or not an entry, is an error naming its physical line. Recovery only reads: it never rewrites.
// A value fresh from JSON.parse holds only JSON and belongs to no one else, so each entry is
// checked where it is (checkEntry) rather than copied again (parseEntry): on a long session that
// copy was the largest part of opening it.
import type { SessionEntry, SessionHeader } from "./entries.js";
import { checkEntry, parseHeader } from "./parse-entry.js";

export interface RecoveredSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** UTF-8 bytes of the committed part: everything up to and including the last newline. */
  committedBytes: number;
  /** The line a write was cut off on, when the file does not end with a newline. */
  tornTail?: { line: number; bytes: number };
}

/** Turns one parsed line into an entry, or throws one line naming why it is not one. */
export type EntryReader = (value: unknown) => SessionEntry;

/**
 * The committed header and entries of the session file `file`, whose text is `content`. Each line
 * after the header is read by `read`: this chapter's checkEntry, or a host's reader that also
 * knows entry types a later chapter (or upstream Pi) writes.
 */
export function recoverSession(content: string, file: string, read: EntryReader = checkEntry): RecoveredSession {
  const lines = content.split("\n");
  const tail = lines.pop() ?? "";
  let header: SessionHeader | undefined;
  const entries: SessionEntry[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `${file} 第 ${index + 1} 行`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${where}不是合法的 JSON`);
    }
    try {
      if (header === undefined) header = parseHeader(value);
      else entries.push(read(value));
    } catch (error) {
      throw new Error(`${where}：${(error as Error).message}`);
    }
  }
  if (header === undefined) throw new Error(`${file} 没有已提交的会话头：它不是会话文件，或者第一行还没写完就被打断了`);
  const tailBytes = Buffer.byteLength(tail);
  const recovered: RecoveredSession = { header, entries, committedBytes: Buffer.byteLength(content) - tailBytes };
  if (tail !== "") recovered.tornTail = { line: lines.length + 1, bytes: tailBytes };
  return recovered;
}
