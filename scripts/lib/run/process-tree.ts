// A child that starts children of its own (`node --test` runs each test file in a child process)
// must be stopped as a whole tree: killing only the child leaves a spinning grandchild behind.
import { type ChildProcess, spawnSync } from "node:child_process";
import { cleanupOnSignal } from "../cleanup-on-signal.js";

/** On POSIX a guarded child leads its own process group, so the whole group can be killed at once. */
export const ownProcessGroup = process.platform !== "win32";

/** Kills `child` and every process it started; a child that is already gone is not an error. */
export function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  if (process.platform === "win32") {
    spawnSync("taskkill", ["/pid", String(child.pid), "/T", "/F"], { windowsHide: true });
    return;
  }
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // The group has already exited.
  }
}

const guarded = new Set<ChildProcess>();
// A watch that is stopped with Ctrl-C, or a CLI that exits early, must not leave a guarded run behind.
process.on("exit", () => {
  for (const child of guarded) killTree(child);
});

/** Keeps `child` on the list of trees killed when this process exits or is interrupted, until it closes. */
export function guardUntilClosed(child: ChildProcess): void {
  guarded.add(child);
  const release = cleanupOnSignal(() => killTree(child));
  child.once("close", () => {
    guarded.delete(child);
    release();
  });
}
