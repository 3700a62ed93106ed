// Where a learner stands in a checkpoint: builds the practice tree once, then runs each lab's
// test-name pattern exactly as the chapter's focused command does and counts what passed.

import type { Checkpoint, Lab } from "../course/manifest.js";
import { type BuildResult, buildTree, type FocusedFailure, runFocused } from "../run/focused-run.js";
import { checkPracticeTree } from "../trees/tree-health.js";
import { RunTimeoutError } from "../usage-error.js";

export interface LabProgress {
  lab: Lab;
  /** Tests of the lab's pattern that passed. */
  passed: number;
  /** Tests the pattern selected (the manifest expects `lab.expected`). */
  selected: number;
  done: boolean;
  firstFailure?: FocusedFailure;
}

export type Verification = { built: false; build: BuildResult } | { built: true; labs: LabProgress[] };

export interface VerifyObserver {
  /** Called once the build is done, before any lab runs. */
  onBuild?(build: BuildResult): void;
  /** Called for each lab as soon as it and every lab before it have finished, in the manifest's order. */
  onLab?(progress: LabProgress, index: number): void;
  /** Aborting stops the runs still going; verifyTree then rejects with RunCancelledError. */
  signal?: AbortSignal;
}

export async function verifyTree(
  dir: string,
  checkpoint: Checkpoint,
  observer: VerifyObserver = {},
): Promise<Verification> {
  checkPracticeTree(dir, checkpoint);
  const build = await buildTree(dir, checkpoint);
  observer.onBuild?.(build);
  if (!build.ok) return { built: false, build };
  // The lab runs are independent processes over the same build: run them side by side, and
  // report each row in order as soon as it can be shown.
  const finished: (LabProgress | undefined)[] = checkpoint.labs.map(() => undefined);
  let shown = 0;
  const labs = await Promise.all(
    checkpoint.labs.map(async (lab, index) => {
      const progress = await labProgress(dir, checkpoint, lab, observer.signal);
      finished[index] = progress;
      for (let next = finished[shown]; next !== undefined; next = finished[shown]) {
        observer.onLab?.(next, shown);
        shown += 1;
      }
      return progress;
    }),
  );
  return { built: true, labs };
}

async function labProgress(dir: string, checkpoint: Checkpoint, lab: Lab, signal?: AbortSignal): Promise<LabProgress> {
  const run = await runFocused(dir, checkpoint, lab.pattern, signal).catch((error: unknown) => {
    if (error instanceof RunTimeoutError) return error;
    throw error;
  });
  if (run instanceof RunTimeoutError) return stoppedLabProgress(lab, run);
  const progress: LabProgress = {
    lab,
    passed: run.pass,
    selected: run.selected,
    done: run.fail === 0 && run.pass === lab.expected && run.selected === lab.expected,
  };
  if (run.firstFailure !== undefined) progress.firstFailure = run.firstFailure;
  return progress;
}

/**
 * A lab whose run was stopped in a synchronous loop: its failure names the test in progress, and
 * the other labs' rows still come.
 */
export function stoppedLabProgress(lab: Lab, stopped: RunTimeoutError): LabProgress {
  const test = stopped.test ?? `Lab ${lab.id} 的一项测试（${lab.pattern}）`;
  return {
    lab,
    passed: 0,
    selected: lab.expected,
    done: false,
    firstFailure: { test, error: stopped.message, diff: [], hung: true, spinning: true },
  };
}

/** The lab a learner should work on next: the first one not done. */
export function nextLab(labs: LabProgress[]): LabProgress | undefined {
  return labs.find((progress) => !progress.done);
}

/** True only when the tree built and every lab passed: verify's exit code 0. */
export function isComplete(verification: Verification): boolean {
  return verification.built && verification.labs.every((progress) => progress.done);
}
