// Runs every test of the repository in one `node --test` process, so the run ends in one summary.
// Files are named here because Node 20 does not expand globs and a bare `node --test`
// at the root would also pick up the learners' red practice directories.
import { spawnSync } from "node:child_process";
import os from "node:os";
import { repoRoot as root } from "./lib/course/manifest.js";
import { compiledTestFiles, testFilesUnder } from "./lib/course/test-files.js";
import { hasTestForceExit } from "./lib/run/focused-run.js";

// The integrity tests (scripts/test) build whole checkpoint trees and take most of the time: they
// start first, so the quick package tests fill the other slot while they run.
const files = [...(await testFilesUnder(root, "scripts/test", ".test.ts")), ...(await compiledTestFiles(root))];
if (files.length === 0) {
  console.error("No test files found: run `npm run build` first.");
  process.exit(1);
}
// Node's default is one file at a time on 2 cores (availableParallelism − 1). Most tests wait on
// child processes (npm, tsc, node --test), so one file more than there are cores keeps both cores
// busy: on 2 cores 374 tests took 129 s two at a time and 106 s three at a time. The flag exists
// from Node 20.10.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const concurrency =
  major > 20 || (major === 20 && minor >= 10)
    ? [`--test-concurrency=${Math.max(2, os.availableParallelism()) + 1}`]
    : [];
// A hung test fails with its name after five minutes instead of holding the run (on Node 20 the limit
// covers a whole file, so it is far above the slowest file), and where Node has --test-force-exit a
// test file's process ends when its tests do: on Node >= 22 a handle a failed test left open (a
// watcher, a timer) would otherwise keep it, and the whole run, waiting forever.
const guards = ["--test-timeout=300000", ...(hasTestForceExit(process.versions.node) ? ["--test-force-exit"] : [])];
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", ...concurrency, ...guards, ...process.argv.slice(2), ...files],
  {
    cwd: root,
    stdio: "inherit",
    // The focused test file tells a learner at the repository root that this is the reference loop;
    // the repository's own suite tests the reference on purpose.
    env: { ...process.env, PI_COURSE_SUITE: "1" },
  },
);
process.exit(result.status ?? 1);
