// Whose harness, tasks and agent `npm run eval` runs: the course's own, or with --from the
// learner's practice tree of chapter 14, loaded through tiny-pi's loader (built from its current
// sources, every chapter's focused tests passing), so every layer, the harness included, is theirs.
import path from "node:path";
import { loadPracticePackages } from "../cli/learner-tree.js";
import { chapterList, learnerChapters } from "../cli/practice-record.js";
import * as reference from "../eval/index.js";

export interface SuiteCode {
  runSuite: typeof reference.runSuite;
  summarise: typeof reference.summarise;
  runtimeAgent: typeof reference.runtimeAgent;
  PRACTICE_TASKS: typeof reference.PRACTICE_TASKS;
}

const EVAL_CHECKPOINT = "14";
/** The chapters whose code one eval run executes besides chapter 14's harness. */
const RUNS = ["13", "12", "11", "10", "09", "08", "07", "06"];
const FUNCTIONS = ["runSuite", "summarise", "runtimeAgent"] as const;

/** `from` as typed, resolved against `cwd` (where the user ran npm). */
export async function loadSuiteCode(from: string | undefined, cwd: string): Promise<SuiteCode> {
  if (from === undefined) return reference;
  const loaded = await loadPracticePackages(path.resolve(cwd, from), cwd, "--from", {
    wanted: [EVAL_CHECKPOINT],
    presentOnly: false,
    usesOf: (id) => (id === EVAL_CHECKPOINT ? RUNS : []),
  });
  const pkg = loaded.get(EVAL_CHECKPOINT);
  if (pkg === undefined) throw new Error(`the loader returned no package for checkpoint ${EVAL_CHECKPOINT}`);
  for (const name of FUNCTIONS) pkg.requireFunction(name);
  return pkg.module as unknown as SuiteCode;
}

/**
 * Whose code the header names: the course's, or the practice tree's, chapter by chapter when its
 * record says some of the chapters an eval run executes are the course's reference there.
 */
export function whoseSuite(from: string | undefined, cwd: string): string {
  if (from === undefined) return "课程的参考实现";
  const learner = learnerChapters(path.resolve(cwd, from));
  const chapters = [...RUNS].reverse().concat(EVAL_CHECKPOINT);
  const reference = learner === undefined ? [] : chapters.filter((id) => !learner.has(id));
  if (reference.length === 0) return `${from} 里你写的代码`;
  const yours = chapters.filter((id) => !reference.includes(id));
  return `${from} 里的代码：你写的是${yours.length === 0 ? "（没有）" : chapterList(yours)}，${chapterList(reference)}是课程的参考实现（建练习目录时带进来的）`;
}
