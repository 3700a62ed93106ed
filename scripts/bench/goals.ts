// The targets of issue 6, checked against measured figures (never in a test: see docs/benchmarks.md).

import type { CourseSuiteReport } from "./course-suite.js";
import type { InnerLoopReport } from "./inner-loop.js";
import type { LoopOverheadReport } from "./loop-overhead.js";
import type { PracticeSetupReport } from "./practice-setup.js";
import type { ProviderReport } from "./provider-overhead.js";
import type { ToolsReport } from "./workspace-tools.js";

export interface Goal {
  name: string;
  value: number;
  limit: number;
  unit: string;
  met: boolean;
}

export function goal(name: string, value: number, limit: number, unit: string): Goal {
  return { name, value, limit, unit, met: value <= limit };
}

export const LOOP_RATIO_LIMIT = 2;
export const AGENT_RATIO_LIMIT = 1.1;
export const LATE_OVER_EARLY_LIMIT = 1.3;
export const INNER_LOOP_LIMIT_MS = 1500;
export const SETUP_LIMIT_MS = 1000;
export const SETUP_LIMIT_BYTES = 1024 * 1024;
export const READ_PEAK_OVER_BASELINE_MIB = 64;
export const EDIT_LIMIT_MS = 100;
export const ABORT_TO_EXIT_LIMIT_MS = 1000;
export const PROVIDER_RATIO_LIMIT = 1.2;

export function loopGoals(report: LoopOverheadReport): Goal[] {
  const largest = Math.max(...report.plan.steps);
  return report.rows
    .filter((row) => row.calls === 4)
    .flatMap((row) => [
      goal(`loop ÷ bare per step, K=4, S=${row.steps}`, row.ratio.loop, LOOP_RATIO_LIMIT, "×"),
      goal(`Agent ÷ loop per step, K=4, S=${row.steps}`, row.agentOverLoop, AGENT_RATIO_LIMIT, "×"),
      ...(row.steps === largest
        ? [
            goal(
              `loop late ÷ early 10% median step, K=4, S=${row.steps}`,
              row.lateOverEarly.loop,
              LATE_OVER_EARLY_LIMIT,
              "×",
            ),
          ]
        : []),
    ]);
}

export function innerLoopGoals(report: InnerLoopReport): Goal[] {
  return [goal("build after an edit + focused tests", report.totalMs, INNER_LOOP_LIMIT_MS, "ms")];
}

export function setupGoals(report: PracticeSetupReport): Goal[] {
  return report.checkpoints.flatMap((setup) => [
    goal(`practice ${setup.id} set-up time`, setup.ms.median, SETUP_LIMIT_MS, "ms"),
    goal(`practice ${setup.id} directory size`, setup.size.bytes, SETUP_LIMIT_BYTES, "bytes"),
  ]);
}

/** `--check` of the whole course, and one checkpoint's `--prove` on an idle 2-core machine (issue "Adding a chapter takes minutes"). */
const CHECK_LIMIT_MS = 5_000;
const PROVE_LIMIT_MS = 60_000;
/** What one more chapter may add to npm test on an idle 2-core machine (issue 33): its own test files, run alone. */
const CHAPTER_NPM_TEST_LIMIT_MS = 3_000;

export function courseGoals(report: CourseSuiteReport): Goal[] {
  return [
    goal("static checks of the whole course", report.staticMs.median, CHECK_LIMIT_MS, "ms"),
    ...report.checkpoints.flatMap((checkpoint) => [
      goal(
        `checkpoint ${checkpoint.id}'s test files in npm test`,
        checkpoint.npmTest.ms,
        CHAPTER_NPM_TEST_LIMIT_MS,
        "ms",
      ),
      ...(checkpoint.prove
        ? [goal(`checkpoint ${checkpoint.id} --prove`, checkpoint.prove.ms, PROVE_LIMIT_MS, "ms")]
        : []),
    ]),
  ];
}

export function toolsGoals(report: ToolsReport): Goal[] {
  return [
    goal(
      "read of the last 10 lines of a 1 GiB file: peak RSS over the baseline",
      report.read.peakMiB.median - report.baselineMiB.median,
      READ_PEAK_OVER_BASELINE_MIB,
      "MiB",
    ),
    goal("edit of one line in a 10 MB file", report.edit.ms.median, EDIT_LIMIT_MS, "ms"),
    goal("bash abort to exit", report.bash.abortToExitMs.median, ABORT_TO_EXIT_LIMIT_MS, "ms"),
  ];
}

export function providerGoals(report: ProviderReport): Goal[] {
  const ratio = report.ratio.ours;
  return ratio === undefined ? [] : [goal("@pi/ai ÷ raw SDK stream per chunk", ratio, PROVIDER_RATIO_LIMIT, "×")];
}
