// `checkpoint --check`: every static rule of the course at once, each problem one line that names
// the file and the fix. Nothing is built or run, so it takes well under a second; what only a
// run can show (a stub that breaks an earlier lab, the diagnostic's red tests) is `--prove`'s.
import { UsageError } from "../usage-error.js";
import { commandBlockProblems } from "./check/command-block-check.js";
import { diagnosticProblems } from "./check/diagnostic-check.js";
import { focusedProblems } from "./check/focused-check.js";
import { guideProblems } from "./check/guide-check.js";
import { placeholderProblems, readmePlaceholders } from "./check/placeholder-check.js";
import { readmeProblems } from "./check/readme-check.js";
import { starterProblems } from "./check/starter-check.js";
import { structureProblems } from "./check/structure.js";
import { type Checkpoint, loadManifest, type Manifest } from "./manifest.js";
import { snapshotProblems } from "./snapshots.js";

/** Each check of one checkpoint's content; `previous` is the checkpoint before it in the course. */
const CONTENT_CHECKS: ((checkpoint: Checkpoint, previous: Checkpoint | undefined) => string[])[] = [
  placeholderProblems,
  focusedProblems,
  starterProblems,
  diagnosticProblems,
  guideProblems,
  commandBlockProblems,
  (checkpoint) => readmeProblems(checkpoint),
];

/** Every problem of the course (empty when it is sound), in course order. */
export function courseProblems(manifest: Manifest = loadManifest()): string[] {
  const problems: string[] = [];
  let sound = true;
  for (const [index, checkpoint] of manifest.checkpoints.entries()) {
    const structure = structureProblems(checkpoint, manifest.checkpoints.slice(0, index));
    // Content checks read the files the structure names: only once they are all there.
    const found =
      structure.length > 0
        ? structure
        : CONTENT_CHECKS.flatMap((check) => check(checkpoint, manifest.checkpoints[index - 1]));
    if (structure.length > 0) sound = false;
    problems.push(...found.map((problem) => `checkpoint ${checkpoint.id}：${problem}`));
  }
  if (sound) problems.push(...snapshotProblems(manifest));
  problems.push(...readmePlaceholders());
  return problems;
}

/** The report of `--check`; throws a UsageError listing the problems when there are any. */
export function checkCourse(manifest: Manifest = loadManifest()): string {
  const problems = courseProblems(manifest);
  if (problems.length > 0) {
    throw new UsageError(`课程有 ${problems.length} 处问题：\n${problems.map((line) => `  ${line}`).join("\n")}`);
  }
  const ids = manifest.checkpoints.map((checkpoint) => checkpoint.id);
  return `课程一致：${ids.length} 个检查点（${ids.join("、")}）；清单、快照、starter、聚焦测试、诊断、指南（含命令块）与 README 都通过静态检查。\n运行一章的全部完整性检查：npm run checkpoint -w @pi/course -- <编号> --prove`;
}
