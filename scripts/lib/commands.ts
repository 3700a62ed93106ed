// The commands a learner types for a checkpoint, spelled once, from the manifest.
import type { Checkpoint } from "./course/manifest.js";

/** `node --test [--test-name-pattern="…"] packages/pi-course/dist/test/07-*.test.js` */
export function focusedCommand(checkpoint: Checkpoint, pattern?: string): string {
  const filter = pattern === undefined ? "" : ` --test-name-pattern="${pattern}"`;
  return `node --test${filter} ${checkpoint.focusedRun}`;
}

/** `npm run practice -w @pi/course -- 07` */
export function practiceCommand(checkpoint: Checkpoint, dir?: string): string {
  return `npm ${practiceArgs(checkpoint, dir).join(" ")}`;
}

/** The practice command's npm arguments: `["run", "practice", "-w", "@pi/course", "--", "07", dir?]`. */
export function practiceArgs(checkpoint: Checkpoint, dir?: string): string[] {
  const args = ["run", "practice", "-w", checkpoint.package, "--", checkpoint.id];
  return dir === undefined ? args : [...args, dir];
}

/** `npm run checkpoint -w @pi/course -- 07 [extra]` */
export function checkpointCommand(checkpoint: Checkpoint, extra?: string): string {
  return `npm run checkpoint -w ${checkpoint.package} -- ${checkpoint.id}${extra === undefined ? "" : ` ${extra}`}`;
}

/** The root command that reproduces the chapter's diagnostic experiment. */
export const diagnosticCommand = "npm run diagnostic";

/** `npm run verify -w @pi/course -- 07 [dir]` */
export function verifyCommand(checkpoint: Checkpoint, dir?: string): string {
  return `npm run verify -w ${checkpoint.package} -- ${checkpoint.id}${dir === undefined ? "" : ` ${dir}`}`;
}
