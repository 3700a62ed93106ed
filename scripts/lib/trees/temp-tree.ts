// A checkpoint tree in a fresh folder under os.tmpdir(), removed afterwards: for the
// integrity tests, the mutation check and the diagnostic command.
import path from "node:path";
import type { Checkpoint } from "../course/manifest.js";
import { withTempDir } from "./temp-dir.js";
import { type TreeKind, writeCheckpointTree } from "./trees.js";

/** Writes the `kind` tree (with `files` replaced or added) to a temp folder, runs `use` on it, removes it. */
export async function withTempTree<T>(
  checkpoint: Checkpoint,
  kind: TreeKind,
  files: Record<string, string>,
  use: (dir: string) => Promise<T>,
): Promise<T> {
  return withTempDir(`pi-course-${kind}-${checkpoint.id}-`, async (holder) => {
    const dir = path.join(holder, kind);
    await writeCheckpointTree(checkpoint, kind, dir, { files });
    return use(dir);
  });
}
