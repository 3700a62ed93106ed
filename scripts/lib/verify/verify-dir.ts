// Which practice directory `verify` looks at: the one the learner named, or else the newest
// practice directory of the checkpoint under the top-level practice/ that `practice` finished
// creating (hidden temp folders and learners' copies are passed over).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { practiceCommand } from "../commands.js";
import type { Checkpoint } from "../course/manifest.js";
import { isFinishedPracticeDir } from "../trees/practice-marker.js";
import { readTreePackageJson } from "../trees/tree-health.js";
import { treePackageName } from "../trees/trees.js";
import { UsageError } from "../usage-error.js";
import { practiceRoot, resolveUserDir } from "../user-paths.js";

/** A package.json that is not JSON is a UsageError saying so, not "not a practice directory". */
function isPracticeTree(dir: string, checkpoint: Checkpoint): boolean {
  return readTreePackageJson(dir, checkpoint)?.name === treePackageName(checkpoint, "practice");
}

/** When a tree was made: its folder's birth time where the file system keeps one, else its package.json's. */
function createdAt(dir: string): number {
  const born = statSync(dir).birthtimeMs;
  return born > 0 ? born : statSync(path.join(dir, "package.json")).mtimeMs;
}

/** The practice trees of `checkpoint` directly under `root`, newest first. */
export function practiceDirs(checkpoint: Checkpoint, root: string = practiceRoot): string[] {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => !entry.startsWith("."))
    .map((entry) => path.join(root, entry))
    .filter((dir) => isFinishedPracticeDir(dir, checkpoint.id))
    .map((dir) => ({ dir, created: createdAt(dir) }))
    .sort((a, b) => b.created - a.created || b.dir.localeCompare(a.dir))
    .map(({ dir }) => dir);
}

/** The checkpoint id of the practice tree that holds `from` (walking up), with the tree's folder. */
export function enclosingPracticeTree(from: string): { dir: string; id: string } | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    try {
      const { name } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown };
      const id = typeof name === "string" ? /^pi-course-practice-(\d{2})$/.exec(name)?.[1] : undefined;
      if (id !== undefined) return { dir, id };
    } catch {
      // No package.json here: keep climbing.
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The practice directory to verify: `given` resolved against `from` (where the learner ran npm),
 * else the practice tree `from` is in, else the newest one under `root`. A folder that is not a practice tree of the checkpoint is a
 * UsageError naming the command that makes one.
 */
export function resolvePracticeDir(
  checkpoint: Checkpoint,
  given: string | undefined,
  from: string,
  root: string = practiceRoot,
): string {
  const make = practiceCommand(checkpoint);
  if (given === undefined) {
    const enclosing = enclosingPracticeTree(from);
    if (enclosing !== undefined && enclosing.id === checkpoint.id) return enclosing.dir;
    const newest = practiceDirs(checkpoint, root)[0];
    if (newest === undefined)
      throw new UsageError(`${root} 下还没有检查点 ${checkpoint.id} 的练习目录：先运行 ${make}。`);
    return newest;
  }
  const dir = resolveUserDir(given, from);
  if (!existsSync(dir)) throw new UsageError(`目录不存在：${dir}。请检查路径，或用 ${make} 创建练习目录。`);
  if (!isPracticeTree(dir, checkpoint)) {
    throw new UsageError(`${dir} 不是检查点 ${checkpoint.id} 的练习目录：请给出 ${make} 创建的目录。`);
  }
  return dir;
}
