// Runs a practice tree's focused tests as the chapter does (`node --test <files>`, in the tree)
// and reads the verdict from the exit code; the TAP summary only adds the counts to the message.
// The run is a child process group: stopped whole at its time limit, or when tiny-pi exits or is
// stopped by a signal.
import { spawn, spawnSync } from "node:child_process";

export interface FocusedVerdict {
  passed: boolean;
  /** `7/9` when the summary could be read. */
  counts?: string;
  timedOut: boolean;
}

const TIME_LIMIT_MS = 120_000;

export function runFocusedTests(tree: string, files: string[]): Promise<FocusedVerdict> {
  const env = { ...process.env };
  // Inside a test run this would turn the nested `node --test` into a silent child reporter.
  delete env.NODE_TEST_CONTEXT;
  const ownGroup = process.platform !== "win32";
  const child = spawn(process.execPath, ["--test", "--test-reporter=tap", ...files], {
    cwd: tree,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: ownGroup,
    windowsHide: true,
  });
  const kill = () => {
    if (child.pid === undefined || child.exitCode !== null) return;
    try {
      if (ownGroup) process.kill(-child.pid, "SIGKILL");
      else spawnSync("taskkill", ["/pid", String(child.pid), "/T", "/F"], { windowsHide: true });
    } catch {
      // Already gone.
    }
  };
  // The run leads its own process group, so a signal to tiny-pi does not reach it: stop it with us.
  const stopWith = (signal: NodeJS.Signals) => {
    kill();
    process.kill(process.pid, signal);
  };
  const onTerm = () => stopWith("SIGTERM");
  const onHup = () => stopWith("SIGHUP");
  process.once("exit", kill);
  process.once("SIGTERM", onTerm);
  process.once("SIGHUP", onHup);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, TIME_LIMIT_MS);
  let report = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    report += chunk;
  });
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      process.removeListener("exit", kill);
      process.removeListener("SIGTERM", onTerm);
      process.removeListener("SIGHUP", onHup);
      const pass = /^# pass (\d+)$/m.exec(report)?.[1];
      const fail = /^# fail (\d+)$/m.exec(report)?.[1];
      const counts = pass !== undefined && fail !== undefined ? `${pass}/${Number(pass) + Number(fail)}` : undefined;
      resolve({ passed: code === 0 && !timedOut, timedOut, ...(counts !== undefined ? { counts } : {}) });
    });
  });
}
