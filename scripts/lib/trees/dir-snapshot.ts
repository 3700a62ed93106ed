// What a folder holds (recursively, links not followed): path, kind, size and mtime of each entry.
// Tests compare two snapshots to show that a refused command wrote or changed nothing.
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

export async function snapshotDir(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (current: string): Promise<void> => {
    for (const entry of (await readdir(current, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(current, entry.name);
      const stat = await lstat(full);
      const kind = stat.isSymbolicLink() ? "link" : stat.isDirectory() ? "dir" : "file";
      lines.push(`${path.relative(dir, full)} ${kind} ${stat.size} ${stat.mtimeMs}`);
      if (kind === "dir") await walk(full);
    }
  };
  await walk(dir);
  return lines;
}
