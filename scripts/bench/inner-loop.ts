// Part 2: the learner's inner loop in a practice directory holding the finished teaching file:
// save → `npm run build -w @pi/course` → `node --test <focused files>`, each a whole process.
// TypeScript 7's `tsc -b` compares content, not only times: after a bare `touch` it only updates
// output timestamps, so the edit that stands for a learner's save really changes the file.
import fs from "node:fs/promises";
import path from "node:path";
import { runNode, runNpm } from "../lib/run/child-process.js";
import { buildArgs, runFocused } from "../lib/run/focused-run.js";
import { benchCheckpoint, dropInTarget, makePractice, withScratch } from "./practice-dir.js";
import { type Summary, summarize } from "./stats.js";
import { timed } from "./timed-process.js";

export interface InnerLoopReport {
  runs: number;
  /** The first build of the fresh directory (@pi/core and @pi/course from nothing), ms. */
  coldBuildMs: number;
  /** Build after touching the teaching file (same content: tsc -b only updates timestamps), ms. */
  touchBuildMs: Summary;
  /** Build after editing the teaching file (a changed comment: @pi/course is compiled again), ms. */
  buildMs: Summary;
  /** The same edit and build without npm: `node <dir>/node_modules/typescript/bin/tsc -b` in the package, ms. */
  tscOnlyMs: Summary;
  /** The nine focused tests, ms. */
  testMs: Summary;
  /** Median build after an edit + median test, ms. */
  totalMs: number;
  /** Tests passed in the last focused run. */
  passed: number;
}

export async function measureInnerLoop(runs: number): Promise<InnerLoopReport> {
  const checkpoint = benchCheckpoint();
  return withScratch(async (scratch) => {
    const dir = path.join(scratch, "practice");
    await makePractice(checkpoint, dir);
    await dropInTarget(checkpoint, dir);
    const build = () => timed("the build", () => runNpm(buildArgs(checkpoint), dir));
    const coldBuildMs = (await build()).ms;
    const teachingFiles = checkpoint.teachingFiles.map((file) => path.join(dir, ...file.split("/")));
    const originals = await Promise.all(teachingFiles.map((file) => fs.readFile(file, "utf8")));

    const tscBin = path.join(dir, "node_modules", "typescript", "bin", "tsc");
    // The folder whose `build` script npm runs: the package holding the teaching file (packages/<name>/src/…).
    const packageDir = path.join(dir, ...(checkpoint.teachingFiles[0] as string).split("/").slice(0, 2));
    const edit = async (label: string) => {
      for (const [index, file] of teachingFiles.entries()) {
        await fs.writeFile(file, `${originals[index]}\n// bench edit ${label}\n`);
      }
    };

    const touchTimes: number[] = [];
    const tscTimes: number[] = [];
    const buildTimes: number[] = [];
    const testTimes: number[] = [];
    let passed = 0;
    for (let run = 0; run < runs; run += 1) {
      const now = new Date();
      for (const file of teachingFiles) await fs.utimes(file, now, now);
      touchTimes.push((await build()).ms);
      await edit(`${run} tsc`);
      tscTimes.push((await timed("tsc -b", () => runNode([tscBin, "-b"], packageDir))).ms);
      await edit(String(run));
      buildTimes.push((await build()).ms);
      // The chapter's `node --test <focused files>` (with the TAP reporter, which costs the same, for the counts).
      const testStarted = performance.now();
      const counts = await runFocused(dir, checkpoint);
      testTimes.push(performance.now() - testStarted);
      if (counts.fail > 0 || counts.pass === 0) throw new Error(`the focused tests did not pass:\n${counts.output}`);
      passed = counts.pass;
    }
    const buildMs = summarize(buildTimes);
    const testMs = summarize(testTimes);
    return {
      runs,
      coldBuildMs,
      touchBuildMs: summarize(touchTimes),
      buildMs,
      tscOnlyMs: summarize(tscTimes),
      testMs,
      totalMs: buildMs.median + testMs.median,
      passed,
    };
  });
}
