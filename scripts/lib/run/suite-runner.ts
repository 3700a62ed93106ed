// How the repository's suites start Node's test runner over their files (scripts/test.ts), and the
// bench when it times a part of npm test the same way.
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { hasTestForceExit } from "./focused-run.js";

/**
 * `node` arguments before the suite's own flags and files: tsx only in the processes of TypeScript
 * test files (scripts/test, scripts/test-course; see the loader), and Node's test runner with one
 * file more than there are cores. Node's default is one file at a time on 2 cores
 * (availableParallelism − 1); most tests wait on child processes (npm, tsc, node --test), so one
 * file more keeps both cores busy. The flag exists from Node 20.10. Where Node has --test-force-exit
 * a test file's process ends when its tests do, so a handle a failed test left open (a watcher, a
 * timer) cannot keep the run waiting.
 */
export function suiteRunnerArgs(root: string, version = process.versions.node): string[] {
  const tsxForTsTests = pathToFileURL(path.join(root, "scripts/lib/run/tsx-for-ts-tests.mjs")).href;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const concurrency =
    major > 20 || (major === 20 && minor >= 10)
      ? [`--test-concurrency=${Math.max(2, os.availableParallelism()) + 1}`]
      : [];
  const forceExit = hasTestForceExit(version) ? ["--test-force-exit"] : [];
  return ["--import", tsxForTsTests, "--test", ...concurrency, ...forceExit];
}

/**
 * The environment a suite's tests run in. PI_COURSE_SUITE: the focused test file tells a learner at
 * the repository root that this is the reference loop; the repository's own suite tests the
 * reference on purpose. GOMAXPROCS: the compiler (tsgo, a Go program) spreads one build over every
 * core, while the suite already keeps every core busy with several test files building their
 * trees. One thread per compiler does an incremental build with less work: chapter 12's 102 planted
 * mistakes took 167 instead of 181 CPU-s. A learner's own verify keeps every thread.
 */
export function suiteEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GOMAXPROCS: env.GOMAXPROCS ?? "1", PI_COURSE_SUITE: "1" };
}
