// Part 6: how the course's own checks grow with the course: the static checks of every checkpoint
// (what npm test runs, in-process), the test files each checkpoint adds (its share of npm test, run
// alone), and each checkpoint's integrity checks alone (`--prove`, what npm run test:course runs along
// the chain), so the cost of the next chapter is visible.
import { spawnSync } from "node:child_process";
import { courseProblems } from "../lib/course/check-course.js";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";
import { compiledTestsOf } from "../lib/course/test-files.js";
import { integrityChecks } from "../lib/prove/integrity-checks.js";
import { ProveContext } from "../lib/prove/prove-context.js";
import { type Summary, summarize } from "./stats.js";

export interface CourseSuiteReport {
  /** courseProblems() over the whole manifest, ms per run. */
  staticMs: Summary;
  checkpoints: {
    id: string;
    /** The compiled test files the checkpoint adds, run alone in one node --test: its share of npm test. */
    testFiles: number;
    npmTestMs: number;
    npmTestPassed: boolean;
    proveMs: number;
    passed: boolean;
  }[];
}

/** The checkpoint's added test files (compiled) run in one `node --test` at the repository root: wall ms and whether they passed. */
function ownTests(files: readonly string[]): { ms: number; passed: boolean } {
  if (files.length === 0) return { ms: 0, passed: true };
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--test", ...files], {
    cwd: repoRoot,
    env: { ...process.env, PI_COURSE_SUITE: "1" },
    stdio: "ignore",
  });
  return { ms: performance.now() - started, passed: run.status === 0 };
}

export async function measureCourseSuite(staticRuns: number): Promise<CourseSuiteReport> {
  const times: number[] = [];
  for (let run = 0; run < staticRuns; run += 1) {
    const started = performance.now();
    courseProblems();
    times.push(performance.now() - started);
  }
  const checkpoints: CourseSuiteReport["checkpoints"] = [];
  for (const checkpoint of loadManifest().checkpoints) {
    const files = compiledTestsOf(checkpoint.target.adds);
    const own = ownTests(files);
    const context = await ProveContext.create();
    const started = performance.now();
    try {
      const outcomes = await Promise.allSettled(integrityChecks(checkpoint, context).map((check) => check.run()));
      const passed = outcomes.every((outcome) => outcome.status === "fulfilled");
      checkpoints.push({
        id: checkpoint.id,
        testFiles: files.length,
        npmTestMs: own.ms,
        npmTestPassed: own.passed,
        proveMs: performance.now() - started,
        passed,
      });
    } finally {
      await context.dispose();
    }
  }
  return { staticMs: summarize(times), checkpoints };
}
