// The change a checkpoint teaches, as a unified diff of its teaching files (jsdiff).
// A rebuilt teaching file does not exist in the parent, so a parent→target diff would only
// add every line. Each file is therefore diffed from where the learner starts: its starter
// (what the practice directory gets); a teaching file without a starter is diffed from empty.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { type Checkpoint, repoRoot } from "./manifest.js";

export interface TeachingDiff {
  file: string;
  /** The repository path the diff starts from; undefined when it starts from an empty file. */
  from?: string;
  patch: string;
}

export function teachingDiffs(checkpoint: Checkpoint): TeachingDiff[] {
  return checkpoint.teachingFiles.map((file) => {
    const starter = checkpoint.starters[file];
    const before = starter === undefined ? "" : read(starter);
    const patch = createTwoFilesPatch(
      `a/${file}`,
      `b/${file}`,
      before,
      read(file),
      starter === undefined ? "parent (no file)" : `starter ${starter}`,
      "target",
    );
    return starter === undefined ? { file, patch } : { file, from: starter, patch };
  });
}

function read(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), "utf8");
}
