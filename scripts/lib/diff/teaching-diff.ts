// The change a checkpoint teaches, as a unified diff of its teaching files (jsdiff).
// A rebuilt teaching file does not exist in the parent, so a parent→target diff only adds every
// line. The default diff therefore starts each file where the learner starts: its starter (what
// the practice directory gets); a teaching file without a starter is diffed from empty.
// `parentDiffs` is the literal parent→target change of the teaching files, a file new in the target
// coming from /dev/null, then of the files the checkpoint changes besides them (its before/ files):
// the change `practice --from` applies to a learner's carried file.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { type Checkpoint, repoRoot } from "../course/manifest.js";
import { changedFiles, parentFiles, targetFiles } from "../course/snapshots.js";

export interface TeachingDiff {
  file: string;
  /** The repository path the diff starts from; undefined when it starts from an empty file. */
  from?: string;
  patch: string;
}

export function teachingDiffs(checkpoint: Checkpoint): TeachingDiff[] {
  const target = targetFiles(checkpoint);
  return checkpoint.teachingFiles.map((file) => {
    const starter = checkpoint.starters[file];
    const before = starter === undefined ? "" : read(starter);
    const patch = createTwoFilesPatch(
      `a/${file}`,
      `b/${file}`,
      before,
      target.get(file) ?? "",
      starter === undefined ? "parent (no file)" : `starter ${starter}`,
      "target",
    );
    return starter === undefined ? { file, patch } : { file, from: starter, patch };
  });
}

/**
 * The parent→target unified diff of each teaching file (one the parent lacks is added from
 * /dev/null), then of each other file the checkpoint changes.
 */
export function parentDiffs(checkpoint: Checkpoint): TeachingDiff[] {
  const parent = parentFiles(checkpoint);
  const targets = targetFiles(checkpoint);
  const changed = changedFiles(checkpoint).filter((file) => !checkpoint.teachingFiles.includes(file));
  return [...checkpoint.teachingFiles, ...changed].map((file) => {
    const before = parent.get(file);
    const target = targets.get(file) ?? "";
    if (before === undefined) return { file, patch: createTwoFilesPatch("/dev/null", `b/${file}`, "", target) };
    const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, target, "parent", "target");
    return { file, from: file, patch };
  });
}

function read(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), "utf8");
}
