// Given (not a lab): the unified diff of an edit, built from the replacements the edit made rather
// than by comparing whole files, so its cost is the file's length plus the replaced text: 10,000
// edits of a megabyte file cost one pass, not a search over every pair of lines.
import { formatPatch, type StructuredPatch } from "diff";

const CONTEXT_LINES = 3;

/** One replaced range of the original text. */
export interface Replacement {
  start: number;
  end: number;
  text: string;
}

export interface FileDiff {
  /** The unified diff, as `diff -u` shows it; a CR before LF is left out. Cut at `maxBytes`. */
  diff: string;
  /** 1-based line of the new text where the first change is. */
  firstChangedLine: number;
  /** Set when the diff was longer than `maxBytes` and cut (its end says so too). */
  diffBytes?: number;
}

/** Whole lines of `before` that one or more replacements change, and what they become. */
interface Region {
  /** Index of the first changed line's start, and just after the last changed line. */
  from: number;
  to: number;
  /** 1-based number of the line at `from`. */
  line: number;
  removed: string[];
  added: string[];
}

type Hunk = StructuredPatch["hunks"][number];

/**
 * The unified diff of `before` with `replacements` (sorted, disjoint) applied, cut to `maxBytes`
 * with a note saying so: it is kept in the session, and a one-line change of a huge line must not
 * keep the line twice.
 */
export function replacementDiff(name: string, before: string, replacements: Replacement[], maxBytes: number): FileDiff {
  const regions = changedRegions(before, replacements);
  const hunks: Hunk[] = [];
  let delta = 0;
  let current: { hunk: Hunk; to: number } | undefined;
  for (const region of regions) {
    const gap = current === undefined ? undefined : linesBetween(before, current.to, region.from);
    if (current === undefined || gap === undefined || gap.length > 2 * CONTEXT_LINES) {
      if (current !== undefined) closeHunk(before, current);
      const context = linesBefore(before, region.from, CONTEXT_LINES);
      const oldStart = region.line - context.length;
      current = {
        hunk: { oldStart, oldLines: 0, newStart: oldStart + delta, newLines: 0, lines: [] },
        to: region.from,
      };
      hunks.push(current.hunk);
      addLines(current.hunk, " ", context);
    } else {
      addLines(current.hunk, " ", gap);
    }
    addLines(current.hunk, "-", region.removed);
    addLines(current.hunk, "+", region.added);
    current.to = region.to;
    delta += region.added.length - region.removed.length;
  }
  if (current !== undefined) closeHunk(before, current);
  const patch: StructuredPatch = {
    oldFileName: name,
    newFileName: name,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
  };
  for (const hunk of hunks) markMissingNewlines(hunk);
  const firstRegion = regions[0];
  const firstHunk = hunks[0];
  const firstChangedLine =
    firstRegion === undefined || firstHunk === undefined
      ? 1
      : firstHunk.newStart + (firstRegion.line - firstHunk.oldStart);
  return { ...capped(formatPatch(patch).replace(/\r$/gm, ""), maxBytes), firstChangedLine };
}

function closeHunk(before: string, current: { hunk: Hunk; to: number }): void {
  addLines(current.hunk, " ", linesAfter(before, current.to, CONTEXT_LINES));
}

function addLines(hunk: Hunk, prefix: " " | "-" | "+", lines: string[]): void {
  for (const line of lines) hunk.lines.push(prefix + line);
  if (prefix !== "+") hunk.oldLines += lines.length;
  if (prefix !== "-") hunk.newLines += lines.length;
}

/** As jsdiff does: a line without its newline is the file's last, and says so. */
function markMissingNewlines(hunk: Hunk): void {
  const lines: string[] = [];
  for (const line of hunk.lines) {
    if (line.endsWith("\n")) lines.push(line.slice(0, -1));
    else lines.push(line, "\\ No newline at end of file");
  }
  hunk.lines = lines;
}

/** The replacements as whole-line regions: touching ones merged, unchanged first and last lines trimmed. */
function changedRegions(before: string, replacements: Replacement[]): Region[] {
  const regions: Region[] = [];
  let lineCursor = 0;
  let lineNumber = 1;
  const lineOf = (index: number) => {
    for (let at = before.indexOf("\n", lineCursor); at !== -1 && at < index; at = before.indexOf("\n", at + 1)) {
      lineNumber += 1;
      lineCursor = at + 1;
    }
    return lineNumber;
  };
  let i = 0;
  while (i < replacements.length) {
    const first = replacements[i] as Replacement;
    const from = lineStart(before, first.start);
    let to = from;
    let added = "";
    let cursor = from;
    // Take replacements while they start inside the region; the region ends on a line boundary of both texts.
    for (;;) {
      const next = replacements[i];
      if (next !== undefined && (next.start < to || cursor === from)) {
        added += before.slice(cursor, next.start) + next.text;
        cursor = next.end;
        to = next.end > from && before[next.end - 1] === "\n" ? next.end : lineEnd(before, next.end);
        i += 1;
        continue;
      }
      if (!(added + before.slice(cursor, to)).endsWith("\n") && to < before.length) {
        to = lineEnd(before, to);
        continue;
      }
      break;
    }
    added += before.slice(cursor, to);
    const region = trimmed(from, splitLines(before.slice(from, to)), splitLines(added));
    if (region === undefined) continue;
    regions.push({ ...region, to: region.from + region.removed.join("").length, line: lineOf(region.from) });
  }
  return regions;
}

function trimmed(
  from: number,
  removed: string[],
  added: string[],
): { from: number; removed: string[]; added: string[] } | undefined {
  let head = 0;
  while (head < removed.length && head < added.length && removed[head] === added[head]) head += 1;
  let tail = 0;
  while (
    tail < removed.length - head &&
    tail < added.length - head &&
    removed[removed.length - 1 - tail] === added[added.length - 1 - tail]
  ) {
    tail += 1;
  }
  if (head === removed.length && head === added.length) return undefined;
  return {
    from: from + removed.slice(0, head).join("").length,
    removed: removed.slice(head, removed.length - tail),
    added: added.slice(head, added.length - tail),
  };
}

/** Lines that keep their newline, so joining them gives the text back. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function lineStart(text: string, index: number): number {
  // lastIndexOf treats a negative position as 0, so index 0 is answered here.
  return index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
}

/** Just after the newline that ends the line holding `index` (the text's end without one). */
function lineEnd(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  return newline === -1 ? text.length : newline + 1;
}

function linesBefore(text: string, index: number, count: number): string[] {
  let start = index;
  for (let taken = 0; taken < count && start > 0; taken += 1) start = lineStart(text, start - 1);
  return splitLines(text.slice(start, index));
}

function linesAfter(text: string, index: number, count: number): string[] {
  let end = index;
  for (let taken = 0; taken < count && end < text.length; taken += 1) end = lineEnd(text, end);
  return splitLines(text.slice(index, end));
}

/** The unchanged lines from `from` to `to` when there are few enough to join two hunks, else undefined. */
function linesBetween(text: string, from: number, to: number): string[] | undefined {
  let end = from;
  for (let taken = 0; end < to; taken += 1) {
    if (taken > 2 * CONTEXT_LINES) return undefined;
    end = lineEnd(text, end);
  }
  return splitLines(text.slice(from, to));
}

/** `diff` cut on a line boundary within `maxBytes`, ending in a note that names the full size. */
function capped(diff: string, maxBytes: number): { diff: string; diffBytes?: number } {
  const bytes = Buffer.byteLength(diff);
  if (bytes <= maxBytes) return { diff };
  const kept = Buffer.from(diff)
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD?$/, "");
  const cut = kept.lastIndexOf("\n");
  const note = `[diff cut at ${maxBytes} of ${bytes} bytes; read the file to see the rest]\n`;
  return { diff: (cut === -1 ? "" : kept.slice(0, cut + 1)) + note, diffBytes: bytes };
}
