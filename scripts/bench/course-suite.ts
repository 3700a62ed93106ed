// Part 6: how the course's own checks grow with the course: the static checks of every checkpoint
// (what npm test runs, in-process) and each checkpoint's integrity checks alone (`--prove`, what
// npm run test:course runs along the chain), so the cost of the next chapter is visible.
import { courseProblems } from "../lib/course/check-course.js";
import { loadManifest } from "../lib/course/manifest.js";
import { integrityChecks } from "../lib/prove/integrity-checks.js";
import { ProveContext } from "../lib/prove/prove-context.js";
import { type Summary, summarize } from "./stats.js";

export interface CourseSuiteReport {
  /** courseProblems() over the whole manifest, ms per run. */
  staticMs: Summary;
  checkpoints: { id: string; proveMs: number; passed: boolean }[];
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
    const context = await ProveContext.create();
    const started = performance.now();
    try {
      const outcomes = await Promise.allSettled(integrityChecks(checkpoint, context).map((check) => check.run()));
      const passed = outcomes.every((outcome) => outcome.status === "fulfilled");
      checkpoints.push({ id: checkpoint.id, proveMs: performance.now() - started, passed });
    } finally {
      await context.dispose();
    }
  }
  return { staticMs: summarize(times), checkpoints };
}
