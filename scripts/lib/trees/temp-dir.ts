// A fresh folder under os.tmpdir() for the length of one task, removed afterwards whatever happens:
// also when the process is interrupted (SIGINT, SIGTERM, SIGHUP), and by the next task with the
// same prefix when the process was killed outright (SIGKILL).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanupOnSignal } from "../cleanup-on-signal.js";
import { ownedPrefix, removeLeftovers, removeOwnedSync, removeTreeAsync } from "./owned-temp.js";

/** Makes `<tmpdir>/<prefix>pid<pid>-XXXXXX`, runs `use` on it and removes it, also when `use` throws. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const parent = os.tmpdir();
  await removeLeftovers(parent, (name) => (name.startsWith(prefix) ? name.slice(prefix.length) : undefined));
  const release = cleanupOnSignal(() => removeOwnedSync(parent, prefix));
  try {
    // Synchronous, so a signal cannot land while the folder is being made and miss it.
    const dir = mkdtempSync(path.join(parent, ownedPrefix(prefix)));
    try {
      return await use(dir);
    } finally {
      // Checkpoint trees hold symlinks (junctions on Windows): removed first, never followed.
      await removeTreeAsync(dir);
    }
  } finally {
    release();
  }
}
