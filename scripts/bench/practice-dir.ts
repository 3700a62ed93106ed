// Practice directories made with the learner's own command, in a scratch folder under os.tmpdir().
import path from "node:path";
import { copy } from "fs-extra/esm";
import { practiceArgs } from "../lib/commands.js";
import { type Checkpoint, findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { runNpm } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import { type TimedResult, timed } from "./timed-process.js";

/** The checkpoint whose practice directory the benchmarks measure: chapter 07, the first one shipped. */
export const BENCHED_CHECKPOINT = "07";

export function benchCheckpoint(): Checkpoint {
  return findCheckpoint(BENCHED_CHECKPOINT);
}

/** Runs the practice command from the repository root, as the chapter tells the learner to. */
export function makePractice(checkpoint: Checkpoint, dir: string): Promise<TimedResult> {
  const args = practiceArgs(checkpoint, dir);
  return timed(`npm ${args.join(" ")}`, () => runNpm(args, repoRoot));
}

/** Replaces each teaching file of the practice directory `dir` with the repository's finished target. */
export async function dropInTarget(checkpoint: Checkpoint, dir: string): Promise<void> {
  for (const file of checkpoint.teachingFiles) {
    await copy(path.join(repoRoot, ...file.split("/")), path.join(dir, ...file.split("/")));
  }
}

/** Runs `use` with a fresh scratch folder and removes the folder afterwards, whatever happens. */
export function withScratch<T>(use: (scratch: string) => Promise<T>): Promise<T> {
  return withTempDir("pi-bench-", use);
}
