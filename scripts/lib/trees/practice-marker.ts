// The mark of a practice directory that `practice` finished creating: a small file written last,
// just before the tree moves into place, naming the folder it was made for and the chapters whose
// teaching files are the learner's (tiny-pi and eval read those: cli/practice-record.ts). A
// half-written temp folder has no marker for its own path, and neither has a learner's copy
// (`cp -r practice/07 practice/07-backup`), so neither is taken for the learner's practice directory.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { outputFile } from "fs-extra/esm";
import { PRACTICE_RECORD } from "../../../packages/pi-coding-agent/src/cli/practice-record.js";

export const PRACTICE_MARKER = PRACTICE_RECORD;

/**
 * Writes the marker of checkpoint `id` into the finished tree `tmp`, which is about to become
 * `target`; `learner` are the chapters whose teaching files in it are the learner's.
 */
export async function writePracticeMarker(
  tmp: string,
  target: string,
  id: string,
  learner: readonly string[],
): Promise<void> {
  const marker = { checkpoint: id, dir: target, learner };
  await outputFile(path.join(tmp, PRACTICE_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/** True when `dir` holds a marker of checkpoint `id` written for `dir` itself. */
export function isFinishedPracticeDir(dir: string, id: string): boolean {
  try {
    const marker = JSON.parse(readFileSync(path.join(dir, PRACTICE_MARKER), "utf8")) as Record<string, unknown>;
    const madeFor = marker.dir;
    if (marker.checkpoint !== id || typeof madeFor !== "string") return false;
    return path.resolve(madeFor) === path.resolve(dir) || realpathSync(madeFor) === realpathSync(dir);
  } catch {
    return false;
  }
}
