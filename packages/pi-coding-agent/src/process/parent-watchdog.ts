// A guarded run leads its own process group (and session), so a signal sent to its parent's
// group (`kill -9 -<pgid>`, a closed terminal's SIGHUP) does not reach it, and a parent killed
// outright runs no handler: its `node --test` children would spin on. So each guarded run gets a
// watchdog: a tiny process, also in a session of its own, that holds a pipe from the parent. When
// the parent dies, however it dies, the pipe closes and the watchdog kills the run's whole tree.
//
// The run's pid reaches the watchdog only after the spawn returns, and a parent killed in between
// (a loaded machine can take milliseconds to get back to it) never sends it. So the watchdog also
// gets a token before the run starts, which the run and every process under it carry in their
// environment: on Linux it kills whatever carries the token. Each watchdog has a variable of its
// own (`PI_COURSE_GUARD_<token>`), so guards nest: tiny-pi run by a guarded test carries both.
//
// tiny-pi guards itself the same way (guardThisProcess): the token goes into its own environment,
// so every process it starts carries it, bash commands in sessions of their own included.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";

/** The prefix of the environment variable that marks every process of one guarded run. */
export const GUARD_VARIABLE = "PI_COURSE_GUARD";

// Plain JavaScript for `node -e`: no tsx start-up for a process that only waits.
const WATCHDOG = `
const marker = "\\0${GUARD_VARIABLE}_" + process.argv[1] + "=";
const guarded = Number(process.argv[2] || 0);
let pid = 0;
// The guarded process's descendants, while it still lives: [pid, process group] pairs.
const descendants = () => {
  if (!(guarded > 0) || process.platform === "win32") return [];
  const listed = require("node:child_process").spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8" });
  const rows = String(listed.stdout || "").trim().split("\\n").map((line) => line.trim().split(/\\s+/).map(Number));
  const found = [];
  for (let parents = [guarded]; parents.length > 0; ) {
    const children = rows.filter((row) => parents.includes(row[1]) && row[0] !== process.pid);
    found.push(...children);
    parents = children.map((row) => row[0]);
  }
  return found;
};
const killTree = () => {
  // A group is killed only when its leader descends from the guarded process: never its own group.
  for (const [child, group] of descendants()) {
    try { process.kill(child === group ? -group : child, "SIGKILL"); } catch {}
  }
  if (pid > 0 && process.platform === "win32") {
    require("node:child_process").spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true });
  } else if (pid > 0) {
    try { process.kill(-pid, "SIGKILL"); } catch {}
  }
  if (process.platform === "linux") {
    const fs = require("node:fs");
    // A process that forks while one pass reads /proc is found by the next: passes go on until one kills nobody.
    for (let pass = 0, killed = 1; killed > 0 && pass < 50; pass += 1) {
      killed = 0;
      for (const entry of fs.readdirSync("/proc")) {
        if (!/^\\d+$/.test(entry) || Number(entry) === process.pid) continue;
        try {
          if (("\\0" + fs.readFileSync("/proc/" + entry + "/environ", "latin1")).includes(marker)) {
            process.kill(Number(entry), "SIGKILL");
            killed += 1;
          }
        } catch {}
      }
    }
  }
  process.exit(0);
};
process.stdin.setEncoding("utf8").on("data", (text) => {
  const line = /^(\\d+)\\n/.exec(text);
  if (line) pid = Number(line[1]);
}).on("end", killTree).on("error", killTree);
`;

export interface Watchdog {
  /** Environment entries the run must be started with, so that everything under it can be found. */
  env: Record<string, string>;
  /** Guards the run `child`, just spawned: the watchdog ends with it, or kills it when this process dies. */
  guard(child: ChildProcess): void;
}

/** `guarded`: a process whose descendants are killed too (found with `ps` while it lives), or 0. */
function spawnWatchdog(guarded = 0): { watchdog: ChildProcess; env: Record<string, string> } {
  const token = randomBytes(8).toString("hex");
  const watchdog = spawn(process.execPath, ["-e", WATCHDOG, token, String(guarded)], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
    windowsHide: true,
  });
  watchdog.on("error", () => undefined);
  watchdog.stdin?.on("error", () => undefined);
  return { watchdog, env: { [`${GUARD_VARIABLE}_${token}`]: "1" } };
}

/** Starts a watchdog for a run about to be spawned with `env`; call `guard` with the run right after its spawn. */
export function startWatchdog(): Watchdog {
  const { watchdog, env } = spawnWatchdog();
  return {
    env,
    guard(child) {
      if (child.pid !== undefined) watchdog.stdin?.write(`${child.pid}\n`);
      // The run is over: closing the pipe lets the watchdog sweep any process it left and exit.
      child.once("close", () => watchdog.stdin?.end());
      child.once("error", () => watchdog.stdin?.end());
    },
  };
}

export interface SelfGuard {
  /** Kills every process this one started that is still running; resolves once the watchdog has. */
  sweep(): Promise<void>;
}

/** A watchdog would rather kill late than never: past this, an exit does not wait for it any longer. */
const SWEEP_LIMIT_MS = 10_000;

/**
 * Guards this process's own descendants: from now on every process it starts carries the token,
 * and when this process ends, however it ends, the watchdog kills them (on Linux: whatever carries
 * the token, wherever it moved). `sweep` before a planned exit makes the kill happen first, while
 * this process still lives: then the watchdog also kills every descendant `ps` lists, and the
 * groups they lead, on any POSIX system and whatever environment they were given. Call it before
 * the first spawn. The watchdog keeps nothing alive: this process exits as it would.
 */
export function guardThisProcess(): SelfGuard {
  const { watchdog, env } = spawnWatchdog(process.pid);
  Object.assign(process.env, env);
  watchdog.unref();
  (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
  let swept: Promise<void> | undefined;
  return {
    sweep() {
      swept ??= new Promise<void>((resolve) => {
        if (watchdog.exitCode !== null || watchdog.signalCode !== null || watchdog.pid === undefined) return resolve();
        const limit = setTimeout(resolve, SWEEP_LIMIT_MS);
        watchdog.ref();
        watchdog.once("exit", () => {
          clearTimeout(limit);
          resolve();
        });
        watchdog.stdin?.end();
      });
      return swept;
    },
  };
}
