// A child that starts children of its own (`node --test` runs each test file in a child process,
// a shell runs its pipeline) must be stopped as a whole tree: killing only the child leaves a
// spinning grandchild behind. The course machinery (scripts/) and tiny-pi both stop trees here.
import { type ChildProcess, spawnSync } from "node:child_process";

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
