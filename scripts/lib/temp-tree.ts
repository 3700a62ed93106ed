// A checkpoint tree in a fresh folder under os.tmpdir(), removed afterwards: for the
// integrity tests, the mutation check and the diagnostic command.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Checkpoint } from "./manifest.js";
import { type TreeKind, writeCheckpointTree } from "./trees.js";

/** Writes the `kind` tree (with `files` replaced or added) to a temp folder, runs `use` on it, removes it. */
export async function withTempTree<T>(
  checkpoint: Checkpoint,
  kind: TreeKind,
  files: Record<string, string>,
  use: (dir: string) => Promise<T>,
): Promise<T> {
  const holder = await mkdtemp(path.join(os.tmpdir(), `pi-course-${kind}-${checkpoint.id}-`));
  try {
    const dir = path.join(holder, kind);
    await writeCheckpointTree(checkpoint, kind, dir, { files });
    return await use(dir);
  } finally {
    // The tree's links are symlinks (junctions on Windows): fs.rm removes them without following.
    await rm(holder, { recursive: true, force: true });
  }
}
