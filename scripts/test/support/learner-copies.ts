// Teaching files as a learner leaves them: the starter with every lab written in, the way the
// starter asks (the code goes where the `Lab N.M … 尚未实现` stub was, the stub is deleted, the
// lab's comments stay), and variants of it with comments reworded or removed and blank lines changed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Checkpoint, repoRoot } from "../../lib/course/manifest.js";
import { targetFiles } from "../../lib/course/snapshots.js";
import { isNoise } from "../../lib/diff/carry-merge.js";
import { labSegments } from "../../lib/diff/lab-regions.js";

const stub = /throw new Error\(".*尚未实现"\);/;

/** Each teaching file of `checkpoint`: its starter with every lab filled in from the target, comments kept. */
export function filledStarters(checkpoint: Checkpoint): Record<string, string> {
  const target = targetFiles(checkpoint);
  const labIds = checkpoint.labs.map((lab) => lab.id);
  return Object.fromEntries(
    Object.entries(checkpoint.starters).map(([file, starter]) => {
      const segments = labSegments(readFileSync(path.join(repoRoot, starter), "utf8"), target.get(file) ?? "", labIds);
      const text = segments.flatMap((segment) => {
        if (segment.kind === "same") return segment.lines;
        if (segment.labs.length === 0) return segment.removed;
        // The starter's comments stay; its code (the stub, the lines a lab replaces) gives way to the
        // target's code, written where the first of it stood. The learner writes no target comments.
        const code = segment.added.filter((line) => !isNoise(line));
        const firstCode = segment.removed.findIndex((line) => !isNoise(line) || stub.test(line));
        const at = firstCode === -1 ? segment.removed.length : firstCode;
        const comments = segment.removed.filter((line) => isNoise(line) && !stub.test(line));
        const before = segment.removed.slice(0, at).filter((line) => isNoise(line));
        return [...before, ...code, ...comments.slice(before.length)];
      });
      return [file, text.join("")];
    }),
  );
}

/** How a learner's copy can differ from the filled starter in comments and blank lines only. */
export const copyVariants: Record<string, (text: string) => string> = {
  注释保留: (text) => text,
  注释改写: (text) =>
    text.replace(/^(\s*)\/\/ ?(.*)$/gm, (_, indent: string, words: string) => `${indent}// 笔记：${words.length}`),
  注释删除: (text) =>
    text
      .split("\n")
      .filter((line) => !/^\s*\/\//.test(line))
      .join("\n"),
  空行删除: (text) =>
    text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .join("\n"),
  空行加倍: (text) => text.replace(/\n\n/g, "\n\n\n"),
  CRLF: (text) => text.replace(/\r?\n/g, "\r\n"),
};

/** Every variant of every teaching file of the checkpoints, as whole file sets (one variant at a time). */
export function learnerCopies(checkpoints: Checkpoint[]): { variant: string; files: Record<string, string> }[] {
  const filled = Object.assign({}, ...checkpoints.map(filledStarters)) as Record<string, string>;
  return Object.entries(copyVariants).map(([variant, change]) => ({
    variant,
    files: Object.fromEntries(Object.entries(filled).map(([file, text]) => [file, change(text)])),
  }));
}
