// A guarded run leads its own process group (and session), so a signal sent to its parent's
// group (`kill -9 -<pgid>`, a closed terminal's SIGHUP) does not reach it, and a parent killed
// outright runs no handler: its `node --test` children would spin on. So each guarded run gets a
// watchdog: a tiny process, also in a session of its own, that holds a pipe from the parent. When
// the parent dies, however it dies, the pipe closes and the watchdog kills the run's whole tree.
// The watchdog starts before the run and is told the run's pid in the same tick as the run's
// spawn returns: a watchdog started after the run would leave the run unguarded while it forks.
import { type ChildProcess, spawn } from "node:child_process";

// Plain JavaScript for `node -e`: no tsx start-up for a process that only waits.
const WATCHDOG = `
let pid = 0;
const killTree = () => {
  if (pid > 0 && process.platform === "win32") {
    require("node:child_process").spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true });
  } else if (pid > 0) {
    try { process.kill(-pid, "SIGKILL"); } catch {}
  }
  process.exit(0);
};
process.stdin.setEncoding("utf8").on("data", (text) => {
  const line = /^(\\d+)\\n/.exec(text);
  if (line) pid = Number(line[1]);
}).on("end", killTree).on("error", killTree);
`;

export interface Watchdog {
  /** Guards the run `child`, just spawned: the watchdog ends with it, or kills it when this process dies. */
  guard(child: ChildProcess): void;
}

/** Starts a watchdog for a run about to be spawned; call `guard` with the run right after its spawn. */
export function startWatchdog(): Watchdog {
  const watchdog = spawn(process.execPath, ["-e", WATCHDOG], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
    windowsHide: true,
  });
  watchdog.on("error", () => undefined);
  watchdog.stdin?.on("error", () => undefined);
  return {
    guard(child) {
      if (child.pid !== undefined) watchdog.stdin?.write(`${child.pid}\n`);
      // The run is over: closing the pipe lets the watchdog sweep any process it left and exit.
      child.once("close", () => watchdog.stdin?.end());
      child.once("error", () => watchdog.stdin?.end());
    },
  };
}
