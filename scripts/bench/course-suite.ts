// Part "course": how npm test grows with the course: the static checks of every checkpoint (what npm
// test runs, in-process), the test files each checkpoint adds (its share of npm test, run alone:
// wall time and CPU time), and the rest of npm test, the files no checkpoint's target holds
// (tiny-pi's whole-program tests, the tools' property and hostile tests, the course machinery's).
// Part "prove": each checkpoint's integrity checks alone (`--prove`, what npm run test:course runs
// along the chain). Together they show the cost of the next chapter.
import { spawnSync } from "node:child_process";
import { courseProblems } from "../lib/course/check-course.js";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";
import { compiledTestsOf, isCourseSuiteTest, suiteFiles } from "../lib/course/test-files.js";
import { integrityChecks } from "../lib/prove/integrity-checks.js";
import { ProveContext } from "../lib/prove/prove-context.js";
import { suiteEnv, suiteRunnerArgs } from "../lib/run/suite-runner.js";
import { childrenCpuMs } from "./child-cpu.js";
import { type Summary, summarize } from "./stats.js";

export interface OwnTests {
  /** The compiled test files the checkpoint adds that npm test runs (test:course's own are left out). */
  files: number;
  ms: number;
  /** User + system CPU of the run; undefined off Linux. */
  cpuMs: number | undefined;
  passed: boolean;
}

export interface CourseSuiteReport {
  /** courseProblems() over the whole manifest, ms per run. */
  staticMs: Summary;
  checkpoints: {
    id: string;
    npmTest: OwnTests;
    /** Only with the part "prove". */
    prove?: { ms: number; passed: boolean };
  }[];
  /** npm test's files that no checkpoint's target adds, run together as npm test runs them. */
  rest: OwnTests;
}

/** Some of npm test's files run in one `node --test` at the repository root as npm test runs them, alone. */
function ownTests(files: readonly string[]): OwnTests {
  if (files.length === 0) return { files: 0, ms: 0, cpuMs: 0, passed: true };
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const run = spawnSync(process.execPath, [...suiteRunnerArgs(repoRoot), ...files], {
    cwd: repoRoot,
    env: suiteEnv(process.env),
    stdio: "ignore",
  });
  const ms = performance.now() - started;
  const cpuAfter = childrenCpuMs();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { files: files.length, ms, cpuMs, passed: run.status === 0 };
}

async function prove(checkpoint: ReturnType<typeof loadManifest>["checkpoints"][number]) {
  const context = await ProveContext.create();
  const started = performance.now();
  try {
    const outcomes = await Promise.allSettled(integrityChecks(checkpoint, context).map((check) => check.run()));
    return { ms: performance.now() - started, passed: outcomes.every((outcome) => outcome.status === "fulfilled") };
  } finally {
    await context.dispose();
  }
}

export async function measureCourseSuite(staticRuns: number, withProve: boolean): Promise<CourseSuiteReport> {
  const times: number[] = [];
  for (let run = 0; run < staticRuns; run += 1) {
    const started = performance.now();
    courseProblems();
    times.push(performance.now() - started);
  }
  const checkpoints: CourseSuiteReport["checkpoints"] = [];
  const attributed = new Set<string>();
  for (const checkpoint of loadManifest().checkpoints) {
    const files = compiledTestsOf(checkpoint.target.adds).filter((file) => !isCourseSuiteTest(file));
    for (const file of files) attributed.add(file);
    checkpoints.push({
      id: checkpoint.id,
      npmTest: ownTests(files),
      ...(withProve ? { prove: await prove(checkpoint) } : {}),
    });
  }
  const rest = (await suiteFiles(repoRoot, "npm test")).filter((file) => !attributed.has(file));
  return { staticMs: summarize(times), checkpoints, rest: ownTests(rest) };
}
