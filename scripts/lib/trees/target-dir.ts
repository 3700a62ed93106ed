// The safe-write part of writing a tree: the learner's target folder is checked first, the tree
// is made in a temporary sibling and moved into place last, so a refusal or a failure leaves
// the target exactly as it was (absent, or an empty folder) and nothing else behind.
import { constants, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { remove } from "fs-extra/esm";
import { UsageError } from "../usage-error.js";
import { explainFsFault, TargetTakenError } from "./fs-faults.js";
import { ownedPrefix, removeLeftovers, removeOwnedSync } from "./owned-temp.js";

/**
 * Checks that `target` can become a new tree: its parent folder exists, and `target` does not
 * exist or is an empty folder (then returns true: it is replaced when the tree moves in).
 */
export async function checkTargetDir(target: string): Promise<boolean> {
  const parent = path.dirname(target);
  const parentStat = await fs.stat(parent).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw explainFsFault(error, target);
  });
  if (parentStat === undefined) throw new UsageError(`上级目录不存在：${parent}。请先创建它，或换一个目录。`);
  if (!parentStat.isDirectory()) throw new UsageError(`${parent} 是文件，不是目录：请换一个目录。`);
  const stat = await fs.lstat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw explainFsFault(error, target);
  });
  if (stat === undefined) return false;
  if (stat.isSymbolicLink()) {
    throw new UsageError(
      `${target} 是一个符号链接（指向 ${await fs.readlink(target)}）：请直接给出它指向的目录，或换一个新目录名。`,
    );
  }
  if (!stat.isDirectory()) throw new UsageError(`${target} 已存在且不是目录：请换一个新目录名。`);
  if ((await fs.readdir(target)).length > 0) {
    throw new UsageError(`${target} 已存在且不为空：请换一个新目录名，或先移走其中的文件。`);
  }
  return true;
}

/** The name of a temp sibling of any target: `.<name>.tmp-pid<owner>-XXXXXX`. */
const TEMP_SIBLING = /^\..+\.tmp-(pid\d+-[A-Za-z0-9]{6})$/;

/**
 * A new hidden folder beside `target` to build the tree in; UsageError when the parent is not
 * writable. Temp siblings that a killed run left in the same parent are removed first.
 */
export async function makeTempSibling(target: string): Promise<string> {
  const parent = path.dirname(target);
  try {
    await fs.access(parent, constants.W_OK);
    await removeLeftovers(parent, (name) => TEMP_SIBLING.exec(name)?.[1]);
    // Synchronous: a signal handler runs between JavaScript steps, so it can never land while the
    // folder is being made in the thread pool and miss it (seen under load: the folder appeared
    // after the handler had cleaned up).
    return mkdtempSync(path.join(parent, ownedPrefix(siblingPrefix(target))));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ENOENT" || code === "ENOTDIR") {
      throw new UsageError(`无法在 ${parent} 中写入（${code}）：请换一个有写权限的目录。`);
    }
    throw explainFsFault(error, target);
  }
}

export type Rename = (from: string, to: string) => Promise<void>;

/**
 * Renames the finished `tmp` to `target`. An empty target folder is replaced: POSIX rename does
 * that in one step; where it refuses (Windows), the folder is removed, and made again if the
 * rename then fails, so the learner's folder is never lost. `rename` is replaceable for tests.
 * fs-extra's move is not used: with `overwrite` it removes the destination before renaming (the
 * empty folder is lost if the rename fails), and across devices it copies (not atomic).
 * A target another run filled meanwhile is a TargetTakenError.
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
    if (isTargetInTheWay(error) && (await holdsFiles(target))) throw targetTaken(target, error);
    if (!replaceEmptyDir || !isTargetInTheWay(error)) throw error;
  }
  await fs.rmdir(target).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ENOTEMPTY" || error.code === "EEXIST" ? targetTaken(target, error) : error;
  });
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

/** True when `dir` is a folder with something in it (another run's finished tree). */
async function holdsFiles(dir: string): Promise<boolean> {
  return ((await fs.readdir(dir).catch(() => undefined))?.length ?? 0) > 0;
}

function targetTaken(target: string, cause: unknown): TargetTakenError {
  const code = (cause as NodeJS.ErrnoException).code;
  return Object.assign(new TargetTakenError(`${target} 刚被另一个命令写入（${code}）：请换一个新目录名后重试。`), {
    code,
  });
}

/**
 * Removes a half-made tree. The links are removed first, one by one and without following them,
 * so the recursive removal below can never reach the main node_modules.
 */
export async function removeTree(tmp: string, links: string[]): Promise<void> {
  for (const link of [...links].reverse()) {
    await fs.unlink(link).catch(() => fs.rmdir(link).catch(() => undefined));
  }
  await remove(tmp);
}

/** The mkdtemp prefix of `target`'s temp siblings: `.<name>.tmp-`. */
function siblingPrefix(target: string): string {
  return `.${path.basename(target)}.tmp-`;
}

/**
 * On a signal: removes this process's half-made trees beside `target` (links first; also one
 * whose mkdtemp has not returned yet) and, if the learner's empty target folder was already
 * removed to make way for it (Windows), makes it again.
 */
export function abandonTree(target: string, replaceEmptyDir: boolean): void {
  removeOwnedSync(path.dirname(target), siblingPrefix(target));
  if (replaceEmptyDir && !existsSync(target)) mkdirSync(target);
}
