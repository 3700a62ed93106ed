// The course manifest (packages/pi-course/checkpoints/manifest.json), read through
// @pi/course-kit's one reader: --from (and --loop, --tools-from) learn from it which files a
// chapter adds, which tests prove a learner's package and how to build it.
import { fileURLToPath } from "node:url";
import { type Checkpoint, ManifestError, readManifest } from "@pi/course-kit";
import { RunError } from "../host/errors.js";

export type CheckpointFacts = Pick<Checkpoint, "id" | "package" | "focusedRun" | "build" | "teachingFiles">;

/** The package holding the manifest, whose scripts run `practice` and `verify` for every checkpoint. */
export const COURSE_PACKAGE = "@pi/course";

/** This file is `packages/pi-coding-agent/dist/src/cli/course-manifest.js` in the repository. */
const manifestURL = new URL("../../../../pi-course/checkpoints/manifest.json", import.meta.url);

/** Every checkpoint of the course, in order; a RunError when the manifest cannot be read. */
export function courseCheckpoints(): Checkpoint[] {
  try {
    return readManifest(fileURLToPath(manifestURL)).checkpoints;
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    throw new RunError(`读不到课程清单（${error.problems[0] ?? error.message}）：请在课程仓库里运行 tiny-pi。`);
  }
}

/** `packages/pi-course/dist/test/07-*.test.js` → `packages/pi-course`. */
export function packageDirOf(checkpoint: CheckpointFacts): string {
  return checkpoint.focusedRun.split("/").slice(0, 2).join("/");
}
