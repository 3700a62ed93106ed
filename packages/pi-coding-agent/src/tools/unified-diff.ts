// Given (not a lab): a unified diff (the `diff` package) of a whole file that costs only what
// changed: the common head and tail are cut off first, keeping the context lines around the change.
import { formatPatch, structuredPatch } from "diff";

const CONTEXT_LINES = 3;

const STRIDE = 4096;

export interface FileDiff {
  /** The unified diff, as `diff -u` shows it; a CR before LF is left out. */
  diff: string;
  /** 1-based line of `after` where the first change is. */
  firstChangedLine: number;
}

/** The unified diff of `before` → `after` for `name`, and where it starts. */
export function unifiedDiff(name: string, before: string, after: string): FileDiff {
  const shortest = Math.min(before.length, after.length);
  let head = 0;
  // Whole strides first (engine-speed comparison), then one character at a time.
  while (head + STRIDE <= shortest && before.slice(head, head + STRIDE) === after.slice(head, head + STRIDE))
    head += STRIDE;
  while (head < shortest && before.charCodeAt(head) === after.charCodeAt(head)) head += 1;
  let tail = 0;
  const tailSlice = (text: string, from: number) => text.slice(text.length - from - STRIDE, text.length - from);
  while (tail + STRIDE <= shortest - head && tailSlice(before, tail) === tailSlice(after, tail)) tail += STRIDE;
  while (
    tail < shortest - head &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail += 1;
  }
  const start = startOfLineBefore(before, head, CONTEXT_LINES);
  const endBefore = endOfLineAfter(before, before.length - tail, CONTEXT_LINES);
  const endAfter = after.length - (before.length - endBefore);
  const patch = structuredPatch(
    name,
    name,
    before.slice(start, endBefore),
    after.slice(start, endAfter),
    undefined,
    undefined,
    {
      context: CONTEXT_LINES,
    },
  );
  // Counting lines is the one step that walks the common head: done once, for both results.
  const skipped = lineNumberAt(before, start) - 1;
  for (const hunk of patch.hunks) {
    hunk.oldStart += skipped;
    hunk.newStart += skipped;
  }
  return {
    diff: formatPatch(patch).replace(/\r$/gm, ""),
    firstChangedLine: skipped + lineNumberAt(after.slice(start, head), head - start),
  };
}

/** The 1-based number of the line that holds `index`. */
function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line += 1;
  return line;
}

/** Where the line `lines` lines above the one holding `index` starts. */
function startOfLineBefore(text: string, index: number, lines: number): number {
  let start = lineStart(text, index);
  for (let count = 0; count < lines && start > 0; count += 1) start = lineStart(text, start - 1);
  return start;
}

function lineStart(text: string, index: number): number {
  // lastIndexOf treats a negative position as 0, so index 0 is answered here.
  return index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
}

/** Just after the newline that ends the line `lines` lines below the one holding `index`. */
function endOfLineAfter(text: string, index: number, lines: number): number {
  let at = index;
  for (let count = 0; count <= lines; count += 1) {
    const newline = text.indexOf("\n", at);
    if (newline === -1) return text.length;
    at = newline + 1;
  }
  return at;
}
