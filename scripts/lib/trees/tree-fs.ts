// Paths and writes inside a tree folder: repository-relative paths use posix separators, and
// folders are made one at a time (never a recursive mkdir that could create a missing parent).
import fs from "node:fs/promises";
import path from "node:path";

/** A relative path with the platform's separators → the same path with `/`. */
export function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}

/** Creates `relative` (posix) under `root` one folder at a time; folders that exist are kept. */
export async function ensureDir(root: string, relative: string): Promise<void> {
  let current = root;
  for (const part of relative.split("/").filter(Boolean)) {
    current = path.join(current, part);
    try {
      await fs.mkdir(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** Writes `content` to `relative` (posix) under `root`, creating its folders. */
export async function writeFileIn(root: string, relative: string, content: string): Promise<void> {
  await ensureDir(root, path.posix.dirname(relative));
  await fs.writeFile(path.join(root, ...relative.split("/")), content);
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
