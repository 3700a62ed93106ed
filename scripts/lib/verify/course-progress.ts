// Where the learner stands in the whole course: for each checkpoint, its newest practice directory
// verified with the same machinery as `verify` (build, then each lab's pattern).
import type { Checkpoint, Manifest } from "../course/manifest.js";
import { practiceRoot } from "../user-paths.js";
import { practiceDirs } from "./verify-dir.js";
import { verifyTree } from "./verify-labs.js";

export type CheckpointProgress =
  | { checkpoint: Checkpoint; state: "not-started" }
  | { checkpoint: Checkpoint; state: "build-failed"; dir: string }
  | { checkpoint: Checkpoint; state: "labs"; dir: string; done: number; total: number };

/** Each checkpoint of the course, in order, with the state of its newest practice directory under `root`. */
export async function courseProgress(manifest: Manifest, root: string = practiceRoot): Promise<CheckpointProgress[]> {
  return Promise.all(
    manifest.checkpoints.map(async (checkpoint): Promise<CheckpointProgress> => {
      const dir = practiceDirs(checkpoint, root)[0];
      if (dir === undefined) return { checkpoint, state: "not-started" };
      const verification = await verifyTree(dir, checkpoint);
      if (!verification.built) return { checkpoint, state: "build-failed", dir };
      const done = verification.labs.filter((progress) => progress.done).length;
      return { checkpoint, state: "labs", dir, done, total: verification.labs.length };
    }),
  );
}
