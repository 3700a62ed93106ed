// `practice N --from <dir>`: check that the earlier practice directory passes its own focused
// tests (in a temporary copy: the learner's directory is only read), then carry its teaching
// files forward to checkpoint N (diff/carry-forward.ts).
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { chapterList, learnerChapters } from "../../../packages/pi-coding-agent/src/cli/practice-record.js";
import { verifyCommand } from "../commands.js";
import { type Checkpoint, loadManifest } from "../course/manifest.js";
import { carryForward, learnerFiles } from "../diff/carry-forward.js";
import { withTempTree } from "../trees/temp-tree.js";
import { treePackageName } from "../trees/trees.js";
import { UsageError } from "../usage-error.js";
import { displayDir, resolveUserDir } from "../user-paths.js";
import { verifyTree } from "../verify/verify-labs.js";

export interface CarriedWork {
  /** The previous practice directory. */
  dir: string;
  previous: Checkpoint;
  /** Files to put in the new practice directory instead of the reference ones. */
  files: Record<string, string>;
  /** The chapters the earlier tree held as the learner's: they stay the learner's in the new one. */
  learner: string[];
  /** What to tell the learner about the files carried and the changes applied. */
  note: string[];
}

export async function carryFrom(next: Checkpoint, fromArgument: string, from: string): Promise<CarriedWork> {
  const manifest = loadManifest();
  const dir = resolveUserDir(fromArgument, from);
  const shown = displayDir(dir, from);
  const courseIds = manifest.checkpoints.map((checkpoint) => checkpoint.id);
  const example = `practice/${courseIds[courseIds.indexOf(next.id) - 1] ?? courseIds[0]}`;
  const previous = await practiceCheckpointOf(dir, shown, example);
  if (courseIds.indexOf(previous.id) >= courseIds.indexOf(next.id)) {
    throw new UsageError(
      `${shown} 是检查点 ${previous.id} 的练习目录，不在 ${next.id} 之前：--from 需要更早检查点的练习目录。`,
    );
  }
  const own: Record<string, string> = {};
  for (const file of learnerFiles(manifest, previous)) {
    own[file] = await readFile(path.join(dir, ...file.split("/")), "utf8").catch(() => {
      throw new UsageError(`${shown} 里没有 ${file}：--from 需要一个完整的练习目录。`);
    });
  }
  const verification = await withTempTree(previous, "practice", own, (copy) => verifyTree(copy, previous));
  if (!verification.built) {
    throw new UsageError(
      `${shown} 无法构建（${verification.build.firstError ?? "构建失败"}）：先修好它（${verifyCommand(previous, shown)}），或去掉 --from。`,
    );
  }
  const done = verification.labs.filter((progress) => progress.done).length;
  if (done < verification.labs.length) {
    throw new UsageError(
      `${shown} 还没有通过检查点 ${previous.id} 的聚焦测试（${done}/${verification.labs.length} 个 Lab）：先完成它（${verifyCommand(previous, shown)}），或去掉 --from 从参考 parent 开始。`,
    );
  }
  const carried = carryForward(manifest, previous, next, own);
  const files = Object.fromEntries(
    Object.entries(carried.files).filter(([file]) => !next.teachingFiles.includes(file)),
  );
  // A tree made before the record listed chapters: every chapter in it is taken as the learner's.
  const recorded = learnerChapters(dir);
  const upTo = courseIds.slice(0, courseIds.indexOf(previous.id) + 1);
  const learner = upTo.filter((id) => recorded === undefined || recorded.has(id));
  const reference = upTo.filter((id) => !learner.includes(id));
  const isLearners = (file: string) =>
    manifest.checkpoints.some(
      (checkpoint) => learner.includes(checkpoint.id) && checkpoint.teachingFiles.includes(file),
    );
  const yours = Object.keys(files).filter(isLearners);
  const note = [
    `带入你在 ${shown} 中写的教学文件（${chapterList(learner)}）：${yours.join("、")}`,
    ...(reference.length === 0
      ? []
      : [
          `  ${chapterList(reference)}在 ${shown} 里是课程的参考实现（建那个练习目录时带进来的），照样带入，仍算课程的`,
        ]),
    ...carried.applied.map(({ file, checkpoint }) => `  检查点 ${checkpoint} 对 ${file} 的改动已应用到你的版本`),
  ];
  return { dir, previous, files, learner, note };
}

/** The checkpoint whose practice tree `dir` is, from its root package.json's name. */
async function practiceCheckpointOf(dir: string, shown: string, example: string): Promise<Checkpoint> {
  const isDir = await stat(dir).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDir) {
    throw new UsageError(
      `--from 的目录不存在：${shown}。请给出上一章的练习目录，例如 ${example}；还没有做上一章时去掉 --from，之前的章用课程的参考实现。`,
    );
  }
  const name = await readFile(path.join(dir, "package.json"), "utf8")
    .then((text) => (JSON.parse(text) as { name?: unknown }).name)
    .catch(() => undefined);
  const previous = loadManifest().checkpoints.find((checkpoint) => treePackageName(checkpoint, "practice") === name);
  if (previous === undefined) {
    throw new UsageError(`${shown} 不是练习目录：--from 需要 npm run practice 创建的目录，例如 ${example}。`);
  }
  return previous;
}
