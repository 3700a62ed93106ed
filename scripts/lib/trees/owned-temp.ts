// Temp folders named after the process that owns them (`<prefix>pid<pid>-XXXXXX`), so that a later
// run can remove what a killed run (SIGKILL: no handler runs) left behind, and never touch a live
// run's folder. Removal never follows a link: a tree's node_modules links into the main tree.
import { lstatSync, readdirSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { remove } from "fs-extra/esm";
import { isAlive } from "../../../packages/pi-coding-agent/src/process/process-tree.js";

/** The mkdtemp prefix of a temp folder owned by this process. */
export function ownedPrefix(prefix: string): string {
  return `${prefix}pid${process.pid}-`;
}

const OWNER = /^pid(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the folders `<prefix>pid<N>-XXXXXX` in `parent` whose owner N is no longer running.
 * Best effort: a leftover this user may not remove (another user's, in a shared /tmp) stays.
 */
export async function removeLeftovers(parent: string, matches: (name: string) => string | undefined): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const owner = OWNER.exec(matches(name) ?? "")?.[1];
    if (owner === undefined || isAlive(Number(owner))) continue;
    await removeTreeAsync(path.join(parent, name)).catch(() => undefined);
  }
}

/** Removes `dir`: links first, without following them. */
export async function removeTreeAsync(dir: string): Promise<void> {
  unlinkLinksUnder(dir);
  await remove(dir);
}

/**
 * Removes, synchronously (for a signal handler), every `<prefix>pid<this pid>-XXXXXX` in `parent`:
 * also one whose mkdtemp has not reported its name yet when the signal comes.
 */
export function removeOwnedSync(parent: string, prefix: string): void {
  const owned = ownedPrefix(prefix);
  for (const name of namesIn(parent)) {
    if (name.startsWith(owned)) removeTreeSync(path.join(parent, name));
  }
}

/**
 * Removes `dir` synchronously (for a signal handler): links first, without following them. Node's
 * rmSync with retries rather than fs-extra's removeSync (no retries): a child stopped by the same
 * signal (tsc) may still be writing into the tree for a moment (ENOTEMPTY).
 */
export function removeTreeSync(dir: string): void {
  unlinkLinksUnder(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

/**
 * Unlinks every link (junction on Windows) under `dir`, never descending into one. fs-extra's
 * remove alone is not trusted with this: on Windows a junction is where a recursive removal has
 * been known to follow the link into the main node_modules.
 */
function unlinkLinksUnder(dir: string): void {
  for (const name of namesIn(dir)) {
    const full = path.join(dir, name);
    try {
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) unlinkLink(full);
      else if (stat.isDirectory()) unlinkLinksUnder(full);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** The entries of `dir`; none when it is gone or not a folder. */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function unlinkLink(link: string): void {
  try {
    unlinkSync(link);
  } catch {
    rmdirSync(link);
  }
}
