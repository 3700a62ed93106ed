// A focused run's own temp folder. The run's TMPDIR (TEMP and TMP on Windows) points into it, so
// the folders its tests make there go with it: a test process stopped midway (at a time limit, or
// with the run that started it) never reaches its own `finally`, and would leave them in the
// user's temp folder. The folder is named after the process that made it; one whose process was
// killed outright (no handler runs) is removed by the next run that makes one.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface RunTemp {
  /** The entries to put over the child's environment. */
  env: { TMPDIR: string; TEMP: string; TMP: string };
  /** Removes the folder and all in it; never throws (a folder it cannot remove is only left). */
  remove(): void;
}

const PREFIX = "pi-course-focused-run-";
const OWNED = /^pi-course-focused-run-pid(\d+)-[A-Za-z0-9]{6}$/;

export function makeRunTemp(): RunTemp {
  removeLeftovers();
  const dir = mkdtempSync(path.join(os.tmpdir(), `${PREFIX}pid${process.pid}-`));
  // Others may pass through, as through the system temp folder, but not list it: a test that runs
  // a child as another user (chapter 08's read-only file, as root) reaches its own folder inside.
  if (process.platform !== "win32") chmodSync(dir, 0o711);
  return { env: { TMPDIR: dir, TEMP: dir, TMP: dir }, remove: () => removeQuietly(dir) };
}

/** The run folders in the temp folder whose process is gone. */
function removeLeftovers(): void {
  let names: string[] = [];
  try {
    names = readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const owner = OWNED.exec(name)?.[1];
    if (owner !== undefined && !running(Number(owner))) removeQuietly(path.join(os.tmpdir(), name));
  }
}

/** Whether process `pid` exists (EPERM: it does, another user's). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  } catch {
    // Left in the temp folder, as any program's temp files may be.
  }
}
