// A fresh folder under os.tmpdir() for the length of one task, removed afterwards whatever happens.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Makes `<tmpdir>/<prefix>XXXXXX`, runs `use` on it and removes it, also when `use` throws. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    // Checkpoint trees hold symlinks (junctions on Windows): fs.rm removes them without following.
    await rm(dir, { recursive: true, force: true });
  }
}
