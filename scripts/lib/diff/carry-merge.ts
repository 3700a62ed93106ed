// A later checkpoint's change to a file (the reference's version before → after) applied to a
// learner's version of it, which started from a starter: its comments differ from the
// reference's (Chinese, `// Lab 7.N` markers, the learner's own notes), its blank lines may
// differ, and its lab code is the learner's. So the change is placed by the code lines around it
// only: comment-only and blank lines never anchor it. A change is applied only where that is
// unambiguous: every code line it removes is found, and no code of the learner's own lies between
// the reference lines on either side of it; otherwise the merge reports the line it stopped at.
import { diffArrays } from "diff";

export type MergeResult = { ok: true; text: string } | { ok: false; line: number };

interface Change {
  /** The change replaces before's lines [start, end) … */
  start: number;
  end: number;
  /** … with these lines of after. */
  added: string[];
}

/** A comment-only or blank line: what the learner's copy may have reworded, removed or added. */
export function isNoise(line: string): boolean {
  return /^\s*($|\/\/|\/\*|\*)/.test(line);
}

const key = (line: string): string => line.trim();

export function mergeChange(before: string, after: string, learner: string): MergeResult {
  const eol = learner.includes("\r\n") ? "\r\n" : "\n";
  const base = lines(before);
  const own = lines(learner);
  const matched = alignCode(base, own);
  const output: string[] = [];
  let copied = 0;
  for (const change of changes(base, lines(after))) {
    const placed = place(change, base, own, matched);
    if (placed === undefined) return { ok: false, line: lineNear(change, matched) };
    if (placed.from < copied) return { ok: false, line: placed.from + 1 };
    output.push(...own.slice(copied, placed.from), ...placed.kept, ...change.added);
    copied = placed.to;
  }
  output.push(...own.slice(copied));
  const ends = learner.endsWith("\n") || learner === "";
  return { ok: true, text: output.join(eol) + (ends && output.length > 0 ? eol : "") };
}

function lines(text: string): string[] {
  const split = text.split(/\r?\n/);
  if (split.at(-1) === "") split.pop();
  return split;
}

/** before's changed runs, in order. */
function changes(base: string[], target: string[]): Change[] {
  const found: Change[] = [];
  let index = 0;
  let open: Change | undefined;
  for (const part of diffArrays(base, target)) {
    if (!part.added && !part.removed) {
      open = undefined;
      index += part.count ?? part.value.length;
      continue;
    }
    if (open === undefined) {
      open = { start: index, end: index, added: [] };
      found.push(open);
    }
    if (part.added) open.added.push(...part.value);
    else {
      index += part.value.length;
      open.end = index;
    }
  }
  return found;
}

/** before's code line index → the learner's line index it matches (longest common subsequence of code lines). */
function alignCode(base: string[], own: string[]): Map<number, number> {
  const code = (text: string[]) => text.flatMap((line, index) => (isNoise(line) ? [] : [index]));
  const baseCode = code(base);
  const ownCode = code(own);
  const matched = new Map<number, number>();
  let b = 0;
  let o = 0;
  const parts = diffArrays(
    baseCode.map((index) => key(base[index] ?? "")),
    ownCode.map((index) => key(own[index] ?? "")),
  );
  for (const part of parts) {
    const count = part.value.length;
    if (part.added) o += count;
    else if (part.removed) b += count;
    else {
      for (let i = 0; i < count; i += 1) matched.set(baseCode[b + i] ?? -1, ownCode[o + i] ?? -1);
      b += count;
      o += count;
    }
  }
  return matched;
}

/**
 * Where `change` goes in the learner's lines: it replaces [from, to), keeping `kept` (the learner's
 * comments in that range) before the added lines. Undefined when the place is not certain.
 */
function place(
  change: Change,
  base: string[],
  own: string[],
  matched: Map<number, number>,
): { from: number; to: number; kept: string[] } | undefined {
  const removedCode = range(change.start, change.end).filter((index) => !isNoise(base[index] ?? ""));
  if (removedCode.some((index) => !matched.has(index))) return undefined;
  const previous = nearestCode(change.start - 1, -1, base);
  const next = nearestCode(change.end, 1, base);
  // The nearest code line on each side must be the learner's too: a changed neighbour makes the place a guess.
  if ((previous !== undefined && !matched.has(previous)) || (next !== undefined && !matched.has(next)))
    return undefined;
  const low = previous === undefined ? -1 : (matched.get(previous) ?? -1);
  const high = next === undefined ? own.length : (matched.get(next) ?? own.length);
  const removedOwn = new Set(removedCode.map((index) => matched.get(index)));
  // The learner's own code between the anchors would make the place a guess.
  for (let index = low + 1; index < high; index += 1) {
    if (!isNoise(own[index] ?? "") && !removedOwn.has(index)) return undefined;
  }
  if (removedCode.length > 0) {
    const first = Math.min(...[...removedOwn].map((index) => index ?? high));
    const last = Math.max(...[...removedOwn].map((index) => index ?? low));
    const kept = own.slice(first, last + 1).filter((line, offset) => isNoise(line) && !removedOwn.has(first + offset));
    return { from: first, to: last + 1, kept };
  }
  const at = insertionPoint(change, base, own, low, high, previous);
  return { from: at, to: at, kept: [] };
}

/**
 * A pure insertion between two anchors with only comments and blank lines between them in the
 * learner's copy: right after the earlier anchor, past the lines that also stand between it and
 * the insertion in before; at the later anchor when before has comments just above the insertion
 * that the learner's copy does not (they introduce what follows), or no earlier anchor at all.
 */
function insertionPoint(
  change: Change,
  base: string[],
  own: string[],
  low: number,
  high: number,
  previous: number | undefined,
): number {
  // At the top of the file the learner's comments are a header: the insertion goes below them.
  if (previous === undefined) return high;
  const between = base.slice(previous + 1, change.start);
  let at = low + 1;
  for (const line of between) {
    if (at < high && key(own[at] ?? "") === key(line)) at += 1;
    else if (key(line) !== "") return high;
  }
  return at;
}

/** before's nearest code line from `from` on in the direction of `step`; undefined past the file's edge. */
function nearestCode(from: number, step: 1 | -1, base: string[]): number | undefined {
  for (let index = from; index >= 0 && index < base.length; index += step) {
    if (!isNoise(base[index] ?? "")) return index;
  }
  return undefined;
}

/** The learner's line (1-based) nearest to where the change would go, for the refusal. */
function lineNear(change: Change, matched: Map<number, number>): number {
  for (let index = change.start - 1; index >= 0; index -= 1) {
    const own = matched.get(index);
    if (own !== undefined) return own + 2;
  }
  return 1;
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset);
}
