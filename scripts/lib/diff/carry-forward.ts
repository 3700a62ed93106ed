// `practice N --from <dir>`: the learner's own teaching files, carried from a finished practice
// directory of an earlier checkpoint M into checkpoint N. Every checkpoint after M that changes one
// of those files has its change (before/ → its target, a unified diff) applied to the learner's
// version (diff/carry-merge.ts: placed by code lines only, so the starter's comments and the lab
// markers the learner kept do not matter); a change that does not apply is refused with the
// file's name, the line, and the command whose diff shows the change.
import type { Checkpoint, Manifest } from "../course/manifest.js";
import { beforeFiles, targetFiles } from "../course/snapshots.js";
import { UsageError } from "../usage-error.js";
import { mergeChange } from "./carry-merge.js";

/** The teaching files of `previous` and of every checkpoint before it: what a learner has written so far. */
export function learnerFiles(manifest: Manifest, previous: Checkpoint): string[] {
  const last = manifest.checkpoints.findIndex((checkpoint) => checkpoint.id === previous.id);
  return manifest.checkpoints.slice(0, last + 1).flatMap((checkpoint) => checkpoint.teachingFiles);
}

export interface CarriedFiles {
  /** Repository path → the learner's content, with the later checkpoints' changes applied. */
  files: Record<string, string>;
  /** `file ← checkpoint id` for every change that was applied. */
  applied: { file: string; checkpoint: string }[];
}

/**
 * The learner's `files` (from a practice directory of `previous`) moved forward to `next`: each
 * checkpoint after `previous` up to `next` applies its change to the files it changes.
 */
export function carryForward(
  manifest: Manifest,
  previous: Checkpoint,
  next: Checkpoint,
  files: Record<string, string>,
): CarriedFiles {
  const ids = manifest.checkpoints.map((checkpoint) => checkpoint.id);
  const later = manifest.checkpoints.slice(ids.indexOf(previous.id) + 1, ids.indexOf(next.id) + 1);
  const carried = { ...files };
  const applied: CarriedFiles["applied"] = [];
  for (const checkpoint of later) {
    const before = beforeFiles(checkpoint);
    const changed = [...before.keys()].filter((file) => carried[file] !== undefined);
    if (changed.length === 0) continue;
    const after = targetFiles(checkpoint, manifest);
    for (const file of changed) {
      const result = mergeChange(before.get(file) ?? "", after.get(file) ?? "", carried[file] ?? "");
      if (!result.ok) {
        throw new UsageError(
          `检查点 ${checkpoint.id} 对 ${file} 的改动无法确定放在你的版本的哪里（第 ${result.line} 行附近的代码与参考实现不同）：npm run checkpoint -w @pi/course -- ${checkpoint.id} --diff parent 里 ${file} 的那一节，以空格或 - 开头的行是参考实现在那里的代码；在 ${previous.id} 的练习目录里把你那里的代码改得与它们一样（改完仍要通过），再运行这条命令；或去掉 --from 从参考 parent 开始。`,
        );
      }
      carried[file] = result.text;
      applied.push({ file, checkpoint: checkpoint.id });
    }
  }
  return { files: carried, applied };
}
