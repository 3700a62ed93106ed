// Which processes are alive in a folder (Linux /proc), for the tests that no process outlives the
// one that started it: tiny-pi's bash commands, the course machinery's focused-test runs.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Live processes (pid: command line) whose working folder is inside `folder` (Linux /proc). */
export function processesIn(folder: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd !== folder && !cwd.startsWith(`${folder}/`)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (/\) Z /.test(stat)) continue; // a zombie has already died
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      found.push(`${pid}: (state ${state}, parent ${ppid}, group ${pgid}) ${command}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Polls `condition` until it holds; fails naming `what` after `ms` (generous: the machine may be loaded). */
export async function waitFor(what: string, condition: () => boolean, ms = 30_000): Promise<void> {
  for (const start = Date.now(); !condition(); await sleep(50)) {
    if (Date.now() - start > ms) assert.fail(`timed out waiting for ${what}`);
  }
}

/** Kills what a failed test left behind, so that it does not outlive the run either. */
export function killAllIn(folder: string): void {
  for (const line of processesIn(folder)) {
    try {
      process.kill(Number(line.split(":")[0]), "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}
