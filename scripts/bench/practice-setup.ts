// Part 3: how long `npm run practice -w @pi/course -- 07 <dir>` takes and how much it writes.
import path from "node:path";
import { type DirSize, dirSize } from "./dir-size.js";
import { benchCheckpoint, makePractice, withScratch } from "./practice-dir.js";
import { type Summary, summarize } from "./stats.js";

export interface PracticeSetupReport {
  runs: number;
  /** Wall time of the whole command (npm + tsx start-up included), ms. */
  ms: Summary;
  /** What the directory holds right after the command, links not counted. */
  size: DirSize;
}

export async function measurePracticeSetup(runs: number): Promise<PracticeSetupReport> {
  const checkpoint = benchCheckpoint();
  return withScratch(async (scratch) => {
    const times: number[] = [];
    let size: DirSize | undefined;
    for (let run = 0; run < runs; run += 1) {
      const dir = path.join(scratch, `practice-${run}`);
      times.push((await makePractice(checkpoint, dir)).ms);
      size ??= await dirSize(dir);
    }
    return { runs, ms: summarize(times), size: size as DirSize };
  });
}
