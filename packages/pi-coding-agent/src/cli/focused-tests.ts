// Runs a practice tree's focused tests as the chapter does (`node --test <files>`, in the tree)
// and reads the verdict from the exit code; the TAP summary only adds the counts to the message.
// The run is a child process group: stopped whole at its time limit, or when tiny-pi exits or is
// stopped by a signal (leave.ts). Its temp folder goes with it (run-temp.ts).
import { spawn } from "node:child_process";
import { makeRunTemp, parseTap } from "@pi/course-kit";
import { killTree, ownProcessGroup } from "../process/process-tree.js";

export interface FocusedVerdict {
  passed: boolean;
  /** `7/9` when the summary could be read. */
  counts?: string;
  timedOut: boolean;
}

const TIME_LIMIT_MS = 120_000;

export function runFocusedTests(tree: string, files: string[]): Promise<FocusedVerdict> {
  const temp = makeRunTemp();
  const env: NodeJS.ProcessEnv = { ...process.env, ...temp.env };
  // Inside a test run this would turn the nested `node --test` into a silent child reporter.
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ["--test", "--test-reporter=tap", ...files], {
    cwd: tree,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: ownProcessGroup,
    windowsHide: true,
  });
  const kill = () => {
    if (child.exitCode === null) killTree(child);
    temp.remove();
  };
  // A signal to tiny-pi ends it through leave.ts, whose watchdog kills this run too.
  process.once("exit", kill);
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
    child.on("error", (error) => {
      temp.remove();
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      process.removeListener("exit", kill);
      temp.remove();
      const counts = summaryCounts(report);
      resolve({ passed: code === 0 && !timedOut, timedOut, ...(counts !== undefined ? { counts } : {}) });
    });
  });
}

/** `7/9` from the run's TAP summary; undefined when the run ended before printing one (killed at its limit). */
function summaryCounts(report: string): string | undefined {
  try {
    const summary = parseTap(report);
    return `${summary.pass}/${summary.pass + summary.fail}`;
  } catch {
    return undefined;
  }
}
