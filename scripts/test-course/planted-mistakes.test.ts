// Every planted mistake of support/planted-mistakes.ts, written into a practice directory of its
// checkpoint and run through verify: the first lab that is not done is the mistake's lab, and the
// summary names the broken rule. One practice tree per checkpoint takes its mistakes one after
// another (each rebuild is incremental), the labs up to the mistake's judged from one focused run
// (support/verify-up-to.ts: one run per mistake instead of one per lab); as many
// checkpoints run side by side as there are cores, those with the most mistakes first (twenty trees
// at once had put the machine's load at 16-24 and made other files' tests flaky). The mistakes
// judge the focused tests' strength, which no Node major changes: with --node-sensitive nothing is
// run (verify's reports on each Node are checked by rule-messages*.test.ts and
// learner-traps.test.ts).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { type Checkpoint, findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { labStages } from "../lib/diff/lab-regions.js";
import { mutatedFiles } from "../lib/mutation/mutants.js";
import { skipUnlessFullRun } from "../lib/run/node-sensitive.js";
import { taskSlots } from "../lib/run/task-slots.js";
import { plainStyle } from "../lib/terminal-style.js";
import { withTempTree } from "../lib/trees/temp-tree.js";
import { nextLab } from "../lib/verify/verify-labs.js";
import { formatSummary } from "../lib/verify/verify-report.js";
import { type PlantedMistake, plantedMistakes } from "../test/support/planted-mistakes.js";
import { verifyUpTo } from "../test/support/verify-up-to.js";

interface Outcome {
  /** The first lab not done, if any. */
  red?: string;
  summary: string;
}

/** The teaching files the mistake is planted in: a lab stage's, or the target's. */
function plantedFiles(checkpoint: Checkpoint, mistake: PlantedMistake): Record<string, string> {
  const base =
    mistake.stage === undefined
      ? Object.fromEntries(checkpoint.teachingFiles.map((file) => [file, targetFiles(checkpoint).get(file) ?? ""]))
      : labStages(checkpoint).find((stage) => stage.lab.id === mistake.stage)?.files;
  assert.ok(base, `${checkpoint.id} 有 Lab ${mistake.stage}`);
  return { ...base, ...mutatedFiles(mistake.mutations, (file) => base[file] ?? "") };
}

/** Runs the checkpoint's mistakes one after another in one practice tree. */
function runChapter(checkpoint: Checkpoint, mistakes: PlantedMistake[]): Promise<Outcome[]> {
  const run = withTempTree(checkpoint, "practice", {}, async (dir) => {
    const outcomes: Outcome[] = [];
    for (const mistake of mistakes) {
      for (const [file, text] of Object.entries(plantedFiles(checkpoint, mistake))) {
        await writeFile(path.join(dir, file), text);
      }
      const verification = await verifyUpTo(dir, checkpoint, mistake.lab);
      assert.ok(verification.built, `${mistake.name}：可以构建`);
      const red = nextLab(verification.labs)?.lab.id;
      const summary = formatSummary(verification.labs, { checkpoint, dir, style: plainStyle });
      outcomes.push(red === undefined ? { summary } : { red, summary });
    }
    return outcomes;
  });
  run.catch(() => undefined);
  return run;
}

const skip = skipUnlessFullRun();
const chapters = [...new Set(plantedMistakes.map((mistake) => mistake.checkpoint))];
const mistakesOf = new Map(
  chapters.map((id) => [id, plantedMistakes.filter((mistake) => mistake.checkpoint === id)] as const),
);
const inSlot = taskSlots(Math.max(2, os.availableParallelism()));
const outcomesOf = new Map<string, Promise<Outcome[]>>();
for (const [id, mistakes] of [...mistakesOf].sort(([, a], [, b]) => b.length - a.length)) {
  const run = skip ? Promise.resolve([]) : inSlot(() => runChapter(findCheckpoint(id), mistakes));
  run.catch(() => undefined);
  outcomesOf.set(id, run);
}
for (const [id, mistakes] of mistakesOf) {
  const outcomes = outcomesOf.get(id) ?? Promise.resolve([]);
  for (const [index, mistake] of mistakes.entries()) {
    test(`${id} 埋下的错误“${mistake.name}”：verify 在 Lab ${mistake.lab} 变红，并说出违反的规则`, {
      skip,
    }, async () => {
      const outcome = (await outcomes)[index];
      assert.ok(outcome);
      assert.equal(outcome.red, mistake.lab, `第一个没通过的 Lab：\n${outcome.summary}`);
      assert.match(outcome.summary, mistake.says, "verify 的摘要说出违反的规则");
    });
  }
}
