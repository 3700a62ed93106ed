// The manifest's own rules beyond its schema: ids and lab numbers in order, every named file
// present, teaching files that the checkpoint owns and that have starters.
import { existsSync } from "node:fs";
import path from "node:path";
import { type Checkpoint, repoRoot } from "../manifest.js";
import { changedFiles } from "../snapshots.js";

/** Problems of one checkpoint's structure, each one line naming the fix; `earlier` are the checkpoints before it. */
export function structureProblems(checkpoint: Checkpoint, earlier: Checkpoint[]): string[] {
  const problems: string[] = [];
  const first = earlier.length === 0;
  if (earlier.some((other) => other.id === checkpoint.id)) problems.push("编号重复：每个检查点一个编号");
  else if (earlier.some((other) => other.id >= checkpoint.id)) problems.push("编号要按学习顺序递增");
  if (first && checkpoint.parent.files === undefined)
    problems.push(`第一个检查点要用 "parent.files" 列出 parent 的全部文件`);
  if (!first && checkpoint.parent.files !== undefined) {
    problems.push(`"parent.files" 只属于第一个检查点：之后的 parent 就是上一个检查点的 target，删掉它`);
  }
  const named = [...Object.values(checkpoint.starters), ...checkpoint.target.adds];
  if (checkpoint.guide !== undefined) named.push(checkpoint.guide);
  for (const relative of named) {
    if (!existsSync(path.join(repoRoot, relative))) problems.push(`${relative} 不存在：创建它，或改清单里的路径`);
  }
  const owned = new Set([...checkpoint.target.adds, ...changedFiles(checkpoint)]);
  for (const teaching of checkpoint.teachingFiles) {
    if (!owned.has(teaching)) {
      problems.push(`教学文件 ${teaching} 既不是本章新增的（target.adds），也没有记录改动前的版本（--record-before）`);
    }
    if (checkpoint.starters[teaching] === undefined)
      problems.push(`教学文件 ${teaching} 没有 starter：在 "starters" 里给出`);
  }
  for (const file of Object.keys(checkpoint.starters)) {
    if (!checkpoint.teachingFiles.includes(file))
      problems.push(`"starters" 里的 ${file} 不是教学文件：加进 teachingFiles 或删掉`);
  }
  if (!checkpoint.target.adds.includes(checkpoint.focusedTest)) {
    problems.push(`聚焦测试 ${checkpoint.focusedTest} 不在 target.adds 里`);
  }
  if (!checkpoint.focusedTest.split("/").at(-1)?.startsWith(`${checkpoint.id}-`)) {
    problems.push(`聚焦测试的文件名要以 ${checkpoint.id}- 开头（focusedRun 由它推出）`);
  }
  if (!owned.has(checkpoint.diagnostic.file)) {
    problems.push(`diagnostic.file ${checkpoint.diagnostic.file} 必须是本章新增或改动的文件`);
  }
  for (const [position, lab] of checkpoint.labs.entries()) {
    const expectedId = `${Number(checkpoint.id)}.${position + 1}`;
    if (lab.id !== expectedId) problems.push(`lab ${lab.id} 应编号为 ${expectedId}（按顺序从 .1 开始）`);
  }
  return problems;
}
