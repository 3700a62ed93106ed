// Practice directories made with the learner's own command, in a scratch folder under os.tmpdir().
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runNpm } from "../lib/child-process.js";
import { practiceCommand } from "../lib/commands.js";
import { type Checkpoint, loadManifest, repoRoot } from "../lib/manifest.js";
import { type TimedResult, timed } from "./timed-process.js";

export const CHECKPOINT_ID = "07";

export function benchCheckpoint(): Checkpoint {
  const checkpoint = loadManifest().checkpoints.find((candidate) => candidate.id === CHECKPOINT_ID);
  if (checkpoint === undefined) throw new Error(`the course manifest has no checkpoint ${CHECKPOINT_ID}`);
  return checkpoint;
}

/** The practice command as npm arguments: `npm run practice -w @pi/course -- 07 <dir>`. */
export function practiceArgs(checkpoint: Checkpoint, dir: string): string[] {
  const [, ...args] = practiceCommand(checkpoint).split(/\s+/);
  return [...args, dir];
}

/** Runs the practice command from the repository root, as the chapter tells the learner to. */
export function makePractice(checkpoint: Checkpoint, dir: string): Promise<TimedResult> {
  return timed(`npm ${practiceArgs(checkpoint, dir).join(" ")}`, () => runNpm(practiceArgs(checkpoint, dir), repoRoot));
}

/** Replaces each teaching file of the practice directory `dir` with the repository's finished target. */
export async function dropInTarget(checkpoint: Checkpoint, dir: string): Promise<void> {
  for (const file of checkpoint.teachingFiles) {
    await fs.copyFile(path.join(repoRoot, ...file.split("/")), path.join(dir, ...file.split("/")));
  }
}

/** Runs `use` with a fresh scratch folder and removes the folder afterwards, whatever happens. */
export async function withScratch<T>(use: (scratch: string) => Promise<T>): Promise<T> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "pi-bench-"));
  try {
    return await use(scratch);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
