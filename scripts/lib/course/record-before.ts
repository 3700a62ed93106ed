// The maintainers' side of the snapshots: recording the version of a file before a checkpoint changes it.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../usage-error.js";
import { type Checkpoint, repoRoot } from "./manifest.js";
import { beforeFolder, parentFile } from "./snapshots.js";

/**
 * Copies `file` as it is in the checkpoint's parent to `checkpoints/<id>/before/<file>`, so the
 * instructor can then change the live file for this checkpoint. Returns the path written (relative
 * to `root`, the repository unless a test gives another folder).
 */
export async function recordBefore(checkpoint: Checkpoint, file: string, root: string = repoRoot): Promise<string> {
  const relative = path.posix.normalize(file.split(path.sep).join("/"));
  const content = parentFile(checkpoint, relative);
  if (content === undefined) {
    throw new UsageError(
      `${relative} 不在检查点 ${checkpoint.id} 的 parent 里：只有 parent 已有的文件才需要记录改动前的版本（新文件请加进 target.adds）。`,
    );
  }
  const destination = `${beforeFolder(checkpoint)}/${relative}`;
  if (existsSync(path.join(root, destination))) {
    throw new UsageError(`${destination} 已经存在：检查点 ${checkpoint.id} 已记录过这个文件改动前的版本。`);
  }
  await fs.mkdir(path.dirname(path.join(root, destination)), { recursive: true });
  await fs.writeFile(path.join(root, destination), content);
  return destination;
}
