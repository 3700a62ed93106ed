// The compiled focused test files of a tree, from a checkpoint's `focusedRun` glob (a `*` in the
// file name only). Expanded here because Node 20's `node --test` does not expand globs; paths are
// posix and relative to the tree, since Node >= 21 reads `--test` arguments as globs, in which a
// Windows `\` would be an escape.
import { readdir } from "node:fs/promises";
import path from "node:path";

export async function focusedFiles(tree: string, focusedRun: string): Promise<string[]> {
  const folder = path.posix.dirname(focusedRun);
  const pattern = globToRegExp(path.posix.basename(focusedRun));
  const names = await readdir(path.join(tree, ...folder.split("/"))).catch(() => [] as string[]);
  return names
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => `${folder}/${name}`);
}

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*");
  return new RegExp(`^${source}$`);
}
