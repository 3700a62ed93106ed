// The course manifest (packages/pi-course/checkpoints/manifest.json), read through
// @pi/course-kit's one reader: --loop and --tools-from learn from it which tests prove a
// learner's package and how to build it.
import { fileURLToPath } from "node:url";
import { type Checkpoint, ManifestError, readManifest } from "@pi/course-kit";
import { RunError } from "./errors.js";

export type CheckpointFacts = Pick<Checkpoint, "id" | "package" | "focusedRun" | "build">;

/** The package holding the manifest, whose scripts run `practice` and `verify` for every checkpoint. */
export const COURSE_PACKAGE = "@pi/course";

/** This file is `packages/pi-coding-agent/dist/src/cli/course-manifest.js` in the repository. */
const manifestURL = new URL("../../../../pi-course/checkpoints/manifest.json", import.meta.url);

/** The checkpoint that builds `packageName`; a RunError when the course has none. */
export function checkpointForPackage(packageName: string, flag: string): CheckpointFacts {
  let checkpoints: Checkpoint[];
  try {
    checkpoints = readManifest(fileURLToPath(manifestURL)).checkpoints;
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    throw new RunError(`读不到课程清单（${error.problems[0] ?? error.message}）：请在课程仓库里运行 tiny-pi。`);
  }
  const checkpoint = checkpoints.find((candidate) => candidate.package === packageName);
  if (checkpoint === undefined) {
    throw new RunError(`${flag} 需要课程清单里构建 ${packageName} 的检查点，目前还没有：先更新课程仓库（git pull）。`);
  }
  return checkpoint;
}

/** `packages/pi-course/dist/test/07-*.test.js` → `packages/pi-course`. */
export function packageDirOf(checkpoint: CheckpointFacts): string {
  return checkpoint.focusedRun.split("/").slice(0, 2).join("/");
}
