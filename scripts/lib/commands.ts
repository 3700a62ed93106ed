// The commands a learner types for a checkpoint, spelled once, from the manifest.
import type { Checkpoint } from "./course/manifest.js";

/** The workspace whose scripts run the course CLIs (checkpoint, practice, verify), whatever package a chapter builds. */
export const coursePackage = "@pi/course";

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
  const args = ["run", "practice", "-w", coursePackage, "--", checkpoint.id];
  return dir === undefined ? args : [...args, dir];
}

/** `npm run checkpoint -w @pi/course -- 07 [extra]` */
export function checkpointCommand(checkpoint: Checkpoint, extra?: string): string {
  return `npm run checkpoint -w ${coursePackage} -- ${checkpoint.id}${extra === undefined ? "" : ` ${extra}`}`;
}

/** `npm run diagnostic -- 07`: the root command that reproduces the chapter's diagnostic experiment. */
export function diagnosticCommand(checkpoint: Checkpoint): string {
  return `npm run diagnostic -- ${checkpoint.id}`;
}

/** The root command that shows the whole course and where the learner stands in it. */
export const courseCommand = "npm run course";

/** How the checkpoint's labs are written in commands and help: `7.N` for checkpoint 07. */
export function labNotation(checkpoint: Checkpoint): string {
  return `${Number(checkpoint.id)}.N`;
}

/** `npm run verify -w @pi/course -- 07 [dir]` */
export function verifyCommand(checkpoint: Checkpoint, dir?: string): string {
  return `npm run verify -w ${coursePackage} -- ${checkpoint.id}${dir === undefined ? "" : ` ${dir}`}`;
}
