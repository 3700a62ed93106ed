// One practice tree shared by every test of a file (built trees are what makes the suite slow):
// made before the first test in a fresh temp folder, removed after the last.
import path from "node:path";
import { after, before } from "node:test";
import type { Checkpoint } from "../../lib/course/manifest.js";
import { withTempDir } from "../../lib/trees/temp-dir.js";
import { writeCheckpointTree } from "../../lib/trees/trees.js";

/** Registers the hooks; the returned function gives the tree's folder once the tests run. */
export function sharedPracticeTree(checkpoint: Checkpoint, prefix: string): () => string {
  let dir = "";
  let release: () => void = () => {};
  let removed: Promise<void> = Promise.resolve();
  before(async () => {
    await new Promise<void>((ready, fail) => {
      removed = withTempDir(prefix, async (holder) => {
        dir = path.join(holder, `practice-${checkpoint.id}`);
        await writeCheckpointTree(checkpoint, "practice", dir);
        ready();
        await new Promise<void>((done) => {
          release = done;
        });
      }).catch(fail);
    });
  });
  after(async () => {
    release();
    await removed;
  });
  return () => dir;
}
