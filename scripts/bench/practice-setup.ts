// Part 3: how long `npm run practice -w @pi/course -- <id> <dir>` takes and how much it writes,
// for every checkpoint of the course.
import path from "node:path";
import { loadManifest } from "../lib/course/manifest.js";
import { type DirSize, dirSize } from "./dir-size.js";
import { makePractice, withScratch } from "./practice-dir.js";
import { type Summary, summarize } from "./stats.js";

export interface CheckpointSetup {
  id: string;
  /** Wall time of the whole command (npm + tsx start-up included), ms. */
  ms: Summary;
  /** What the directory holds right after the command, links not counted. */
  size: DirSize;
}

export interface PracticeSetupReport {
  runs: number;
  checkpoints: CheckpointSetup[];
}

export async function measurePracticeSetup(runs: number): Promise<PracticeSetupReport> {
  return withScratch(async (scratch) => {
    const checkpoints: CheckpointSetup[] = [];
    for (const checkpoint of loadManifest().checkpoints) {
      const times: number[] = [];
      let size: DirSize | undefined;
      for (let run = 0; run < runs; run += 1) {
        const dir = path.join(scratch, `practice-${checkpoint.id}-${run}`);
        times.push((await makePractice(checkpoint, dir)).ms);
        size ??= await dirSize(dir);
      }
      checkpoints.push({ id: checkpoint.id, ms: summarize(times), size: size as DirSize });
    }
    return { runs, checkpoints };
  });
}
