// A child that starts children of its own (`node --test` runs each test file in a child process,
// a shell runs its pipeline) must be stopped as a whole tree: killing only the child leaves a
// spinning grandchild behind. The course machinery (scripts/) and tiny-pi both stop trees here,
// with the same group signal the bash tool uses (tools/process-group.ts).
import type { ChildProcess } from "node:child_process";
import { ownProcessGroup, signalProcessGroup } from "../tools/process-group.js";

/** On POSIX a guarded child leads its own process group, so the whole group can be killed at once. */
export { ownProcessGroup };

/** Kills `child` and every process it started; a child that is already gone is not an error. */
export function killTree(child: ChildProcess): void {
  if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
}

/** Whether process `pid` still exists (EPERM: it does, owned by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
