// The course manifest (packages/pi-course/checkpoints/manifest.json) is the one description of
// every checkpoint; --loop and --tools-from read from it which tests prove a learner's package.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RunError } from "./errors.js";

export interface CheckpointFacts {
  id: string;
  /** The package the chapter builds, e.g. `@pi/course`. */
  package: string;
  /** The compiled focused tests, relative to a tree, e.g. `packages/pi-course/dist/test/07-*.test.js`. */
  focusedRun: string;
  /** The chapter's build command, e.g. `npm run build -w @pi/course`. */
  build: string;
}

/** The package holding the manifest, whose scripts run `practice` and `verify` for every checkpoint. */
export const COURSE_PACKAGE = "@pi/course";

/** This file is `packages/pi-coding-agent/dist/src/cli/course-manifest.js` in the repository. */
const manifestURL = new URL("../../../../pi-course/checkpoints/manifest.json", import.meta.url);

/** The checkpoint that builds `packageName`; a RunError when the course has none. */
export function checkpointForPackage(packageName: string, flag: string): CheckpointFacts {
  let checkpoints: CheckpointFacts[];
  try {
    checkpoints = (JSON.parse(readFileSync(manifestURL, "utf8")) as { checkpoints: CheckpointFacts[] }).checkpoints;
  } catch (error) {
    throw new RunError(
      `读不到课程清单 ${fileURLToPath(manifestURL)}（${(error as Error).message}）：请在课程仓库里运行 tiny-pi。`,
    );
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
