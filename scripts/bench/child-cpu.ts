// CPU time of this process's finished children (and their waited-for descendants), from Linux's
// /proc/self/stat. npm test is bound by CPU on 2 cores, so a checkpoint's CPU-seconds say what it
// adds to the whole run better than its wall time alone, which includes waiting on timers and spawns.
import { readFileSync } from "node:fs";

/** Linux reports cutime and cstime in USER_HZ ticks, 100 a second on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** User + system CPU ms of the children waited for so far; undefined where /proc is not there. */
export function childrenCpuMs(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync("/proc/self/stat", "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces, so it is skipped by its closing paren):
  // state is field 3, cutime field 16 and cstime field 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}
