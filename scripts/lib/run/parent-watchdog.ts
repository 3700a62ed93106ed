// A guarded run leads its own process group (and session), so a signal sent to its parent's
// group (`kill -9 -<pgid>`, a closed terminal's SIGHUP) does not reach it, and a parent killed
// outright runs no handler: its `node --test` children would spin on. So each guarded run gets a
// watchdog: a tiny process, also in a session of its own, that holds a pipe from the parent. When
// the parent dies, however it dies, the pipe closes and the watchdog kills the run's whole tree.
import { type ChildProcess, spawn } from "node:child_process";

// Plain JavaScript for `node -e`: no tsx start-up for a process that only waits.
const WATCHDOG = `
const pid = Number(process.argv[1]);
const killTree = () => {
  if (process.platform === "win32") {
    require("node:child_process").spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true });
  } else {
    try { process.kill(-pid, "SIGKILL"); } catch {}
  }
  process.exit(0);
};
process.stdin.on("end", killTree).on("error", killTree).resume();
`;

/** Starts the watchdog of the guarded `child`; it ends with the child, or kills it when this process dies. */
export function watchParent(child: ChildProcess): void {
  if (child.pid === undefined) return;
  const watchdog = spawn(process.execPath, ["-e", WATCHDOG, String(child.pid)], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
    windowsHide: true,
  });
  watchdog.on("error", () => undefined);
  watchdog.stdin?.on("error", () => undefined);
  // The run is over: closing the pipe lets the watchdog sweep any process it left and exit.
  child.once("close", () => watchdog.stdin?.end());
}
