// Where a learner stands in a checkpoint: builds the practice tree once, then runs each lab's
// test-name pattern exactly as the chapter's focused command does and counts what passed.

import { selects } from "../course/check/test-titles.js";
import type { Checkpoint, Lab } from "../course/manifest.js";
import {
  type BuildResult,
  buildTree,
  type FocusedFailure,
  type FocusedResult,
  runFocused,
} from "../run/focused-run.js";
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
  return { built: true, labs: await labsOneByOne(dir, checkpoint, observer) };
}

/**
 * verifyTree's verdicts from one focused run of every lab's tests, for callers that want only the
 * verdicts and not verify's rows as they come (the course suite's chains and planted mistakes): each
 * lab reads its tests out of the run by its pattern, the way --test-name-pattern selects them. When
 * one run cannot tell what the labs' own runs would (it was stopped or crashed, a lab's count is
 * short, or the first failure is not the first red lab's), the labs are run one by one instead.
 */
export async function verifyTreeAtOnce(dir: string, checkpoint: Checkpoint): Promise<Verification> {
  checkPracticeTree(dir, checkpoint);
  const build = await buildTree(dir, checkpoint);
  if (!build.ok) return { built: false, build };
  const patterns = checkpoint.labs.map((lab) => lab.pattern);
  const run = await runFocused(dir, checkpoint, patterns).catch((error: unknown) => {
    if (error instanceof RunTimeoutError) return undefined;
    throw error;
  });
  const labs = run === undefined ? undefined : labsOfOneRun(checkpoint, run);
  return { built: true, labs: labs ?? (await labsOneByOne(dir, checkpoint)) };
}

/** The labs' progress as one run of all their tests shows it, or undefined when it cannot stand for their own runs. */
function labsOfOneRun(checkpoint: Checkpoint, run: FocusedResult): LabProgress[] | undefined {
  const failure = run.firstFailure;
  if (failure?.crashed !== undefined) return undefined;
  const labs = checkpoint.labs.map((lab) => {
    const own = run.results.filter((test) => test.status !== "skip" && selects(lab.pattern, test.name));
    const pass = own.filter((test) => test.status === "pass").length;
    return countedProgress(lab, { pass, fail: own.length - pass, selected: own.length });
  });
  const next = nextLab(labs);
  if (next === undefined) return labs;
  // A lab's own run reports its first failure: here that is the run's first, when it is this lab's.
  if (failure === undefined || !selects(next.lab.pattern, failure.test)) return undefined;
  next.firstFailure = failure;
  return labs;
}

/** Runs each lab's pattern in its own process, side by side, reporting each row in order as soon as it can be shown. */
async function labsOneByOne(
  dir: string,
  checkpoint: Checkpoint,
  observer: VerifyObserver = {},
): Promise<LabProgress[]> {
  const finished: (LabProgress | undefined)[] = checkpoint.labs.map(() => undefined);
  let shown = 0;
  return Promise.all(
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
}

async function labProgress(dir: string, checkpoint: Checkpoint, lab: Lab, signal?: AbortSignal): Promise<LabProgress> {
  const run = await runFocused(dir, checkpoint, lab.pattern, signal).catch((error: unknown) => {
    if (error instanceof RunTimeoutError) return error;
    throw error;
  });
  if (run instanceof RunTimeoutError) return stoppedLabProgress(lab, run);
  const progress = countedProgress(lab, run);
  if (run.firstFailure !== undefined) progress.firstFailure = run.firstFailure;
  return progress;
}

/** A lab is done when its pattern selected exactly its expected tests and every one passed. */
function countedProgress(lab: Lab, run: Pick<FocusedResult, "pass" | "fail" | "selected">): LabProgress {
  return {
    lab,
    passed: run.pass,
    selected: run.selected,
    done: run.fail === 0 && run.pass === lab.expected && run.selected === lab.expected,
  };
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
