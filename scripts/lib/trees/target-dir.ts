// The safe-write part of writing a tree: the learner's target folder is checked first, the tree
// is made in a temporary sibling and moved into place last, so a refusal or a failure leaves
// the target exactly as it was (absent, or an empty folder) and nothing else behind.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../usage-error.js";

/**
 * Checks that `target` can become a new tree: its parent folder exists, and `target` does not
 * exist or is an empty folder (then returns true: it is replaced when the tree moves in).
 */
export async function checkTargetDir(target: string): Promise<boolean> {
  const parent = path.dirname(target);
  const parentStat = await fs.stat(parent).catch(() => undefined);
  if (parentStat === undefined) throw new UsageError(`上级目录不存在：${parent}。请先创建它，或换一个目录。`);
  if (!parentStat.isDirectory()) throw new UsageError(`${parent} 是文件，不是目录：请换一个目录。`);
  const stat = await fs.lstat(target).catch(() => undefined);
  if (stat === undefined) return false;
  if (!stat.isDirectory()) throw new UsageError(`${target} 已存在且不是目录：请换一个新目录名。`);
  if ((await fs.readdir(target)).length > 0) {
    throw new UsageError(`${target} 已存在且不为空：请换一个新目录名，或先移走其中的文件。`);
  }
  return true;
}

/** A new hidden folder beside `target` to build the tree in; UsageError when the parent is not writable. */
export async function makeTempSibling(target: string): Promise<string> {
  const parent = path.dirname(target);
  try {
    await fs.access(parent, constants.W_OK);
    return await fs.mkdtemp(path.join(parent, `.${path.basename(target)}.tmp-`));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ENOENT" || code === "ENOTDIR") {
      throw new UsageError(`无法在 ${parent} 中写入（${code}）：请换一个有写权限的目录。`);
    }
    throw error;
  }
}

export type Rename = (from: string, to: string) => Promise<void>;

/**
 * Renames the finished `tmp` to `target`. An empty target folder is replaced: POSIX rename does
 * that in one step; where it refuses (Windows), the folder is removed, and made again if the
 * rename then fails, so the learner's folder is never lost. `rename` is replaceable for tests.
 */
export async function moveIntoPlace(
  tmp: string,
  target: string,
  replaceEmptyDir: boolean,
  rename: Rename = fs.rename,
): Promise<void> {
  try {
    await rename(tmp, target);
    return;
  } catch (error) {
    if (!replaceEmptyDir || !isTargetInTheWay(error)) throw error;
  }
  await fs.rmdir(target);
  try {
    await rename(tmp, target);
  } catch (error) {
    await fs.mkdir(target).catch(() => undefined);
    throw error;
  }
}

/** The error codes a rename onto an existing folder gives where it does not replace it. */
function isTargetInTheWay(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EEXIST" || code === "ENOTEMPTY" || code === "EPERM" || code === "EACCES";
}

/**
 * Removes a half-made tree. The links are removed first, one by one and without following them,
 * so the recursive removal below can never reach the main node_modules.
 */
export async function removeTree(tmp: string, links: string[]): Promise<void> {
  for (const link of links.reverse()) {
    await fs.unlink(link).catch(() => fs.rmdir(link).catch(() => undefined));
  }
  await fs.rm(tmp, { recursive: true, force: true });
}
