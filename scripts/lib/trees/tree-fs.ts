// Paths and writes inside a tree folder: repository-relative paths use posix separators, and
// folders are only ever made inside a tree whose root already exists.
import fs from "node:fs/promises";
import path from "node:path";
import { ensureDir as ensureDirExtra, outputFile } from "fs-extra/esm";

/** A relative path with the platform's separators → the same path with `/`. */
export function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}

/**
 * Creates `relative` (posix) under `root`; folders that exist are kept. `root` must already exist
 * (it is the tree's fresh temp folder): fs-extra's recursive ensureDir then only makes folders
 * inside the tree, never a missing parent outside it.
 */
export async function ensureDir(root: string, relative: string): Promise<void> {
  await ensureDirExtra(path.join(root, ...relative.split("/")));
}

/** Writes `content` to `relative` (posix) under the existing folder `root`, creating its folders inside it. */
export async function writeFileIn(root: string, relative: string, content: string): Promise<void> {
  await outputFile(path.join(root, ...relative.split("/")), content);
}

/**
 * The files under `root/dir` (`dir` posix), as posix paths relative to `root`, sorted; files and
 * folders whose name `skip` accepts are passed over, and so are links. Empty when the folder does
 * not exist. Walked one folder at a time (readdir's `recursive` option needs Node >= 20.1).
 */
export async function filesUnder(
  root: string,
  dir: string,
  skip: (name: string) => boolean = () => false,
): Promise<string[]> {
  const found: string[] = [];
  const entries = await fs.readdir(path.join(root, ...dir.split("/")), { withFileTypes: true }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  for (const entry of entries) {
    if (skip(entry.name)) continue;
    const child = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(root, child, skip)));
    else if (entry.isFile()) found.push(child);
  }
  return found.sort();
}
