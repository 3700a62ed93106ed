// Which files each checkpoint's trees hold, and with what content, rebuilt from what the
// repository holds. The course is the manifest's ordered list of checkpoints:
//   - the first checkpoint's parent lists its files (`parent.files`);
//   - every checkpoint lists the files it adds (`target.adds`);
//   - for every file it changes, it keeps the file as it was before the change (a reverse delta)
//     at `packages/pi-course/checkpoints/<id>/before/<repository path>`;
//   - the live tree is the target of the last checkpoint.
// Walking back from the live tree gives every earlier target: target(N−1) is target(N) without
// N's added files and with N's `before/` files put back, and parent(N) is exactly target(N−1).
// Files in the live tree that no checkpoint names (other packages, the CLI) belong to no tree.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../usage-error.js";
import { type Checkpoint, loadManifest, type Manifest, repoRoot } from "./manifest.js";

/** Repository-relative posix path → content. */
export type FileSet = Map<string, string>;

/** `packages/pi-course/checkpoints/<id>`: a checkpoint's own folder (starters, guide, `before/`). */
export function checkpointFolder(checkpoint: Pick<Checkpoint, "id">): string {
  return `packages/pi-course/checkpoints/${checkpoint.id}`;
}

/** `packages/pi-course/checkpoints/<id>/before`: where the versions before the checkpoint's changes live. */
export function beforeFolder(checkpoint: Pick<Checkpoint, "id">): string {
  return `${checkpointFolder(checkpoint)}/before`;
}

/** The files `checkpoint` changes (repository paths), read from its `before/` folder, sorted. */
export function changedFiles(checkpoint: Pick<Checkpoint, "id">): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    const entries = readdirSync(path.join(repoRoot, beforeFolder(checkpoint), relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  if (existsSync(path.join(repoRoot, beforeFolder(checkpoint)))) walk("");
  return files.sort();
}

/** Each file `checkpoint` changes → its content in the parent (before the change). */
export function beforeFiles(checkpoint: Pick<Checkpoint, "id">): FileSet {
  const folder = beforeFolder(checkpoint);
  return new Map(changedFiles(checkpoint).map((file) => [file, readRepoFile(`${folder}/${file}`)]));
}

/** Every file of the last checkpoint's target: the first parent's files and every checkpoint's additions. */
export function courseFiles(manifest: Manifest = loadManifest()): string[] {
  const first = manifest.checkpoints[0];
  const files = [
    ...(first?.parent.files ?? []),
    ...manifest.checkpoints.flatMap((checkpoint) => checkpoint.target.adds),
  ];
  return [...new Set(files)].sort();
}

/** The target of `checkpoint`: the live course files, walked back over every later checkpoint. */
export function targetFiles(checkpoint: Checkpoint, manifest: Manifest = loadManifest()): FileSet {
  const index = indexOf(checkpoint, manifest);
  let files: FileSet = new Map(courseFiles(manifest).map((file) => [file, readRepoFile(file)]));
  for (const later of manifest.checkpoints.slice(index + 1).reverse()) files = stepBack(files, later);
  return files;
}

/** The parent of `checkpoint`: exactly the previous checkpoint's target (for the first, its listed files). */
export function parentFiles(checkpoint: Checkpoint, manifest: Manifest = loadManifest()): FileSet {
  return stepBack(targetFiles(checkpoint, manifest), checkpoint);
}

/**
 * One file of the checkpoint's target, or undefined when that target does not hold it: the same
 * walk back as targetFiles, for this file alone, so files not yet written elsewhere do not matter.
 */
export function targetFile(
  checkpoint: Checkpoint,
  file: string,
  manifest: Manifest = loadManifest(),
): string | undefined {
  const index = indexOf(checkpoint, manifest);
  const live = courseFiles(manifest).includes(file) && existsSync(path.join(repoRoot, file));
  let content = live ? readRepoFile(file) : undefined;
  for (const later of manifest.checkpoints.slice(index + 1).reverse()) content = stepBackFile(later, file, content);
  return content;
}

/** One file of the checkpoint's parent, or undefined when the parent does not hold it. */
export function parentFile(
  checkpoint: Checkpoint,
  file: string,
  manifest: Manifest = loadManifest(),
): string | undefined {
  return stepBackFile(checkpoint, file, targetFile(checkpoint, file, manifest));
}

function stepBackFile(checkpoint: Checkpoint, file: string, content: string | undefined): string | undefined {
  if (checkpoint.target.adds.includes(file)) return undefined;
  const before = path.join(repoRoot, beforeFolder(checkpoint), ...file.split("/"));
  return existsSync(before) ? readFileSync(before, "utf8") : content;
}

/** target(N) → target(N−1): N's added files removed, N's `before/` files put back. */
function stepBack(target: FileSet, checkpoint: Checkpoint): FileSet {
  const files = new Map(target);
  for (const added of checkpoint.target.adds) files.delete(added);
  for (const [file, content] of beforeFiles(checkpoint)) files.set(file, content);
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function indexOf(checkpoint: Checkpoint, manifest: Manifest): number {
  const index = manifest.checkpoints.findIndex((candidate) => candidate.id === checkpoint.id);
  if (index === -1) throw new Error(`checkpoint ${checkpoint.id} is not in the manifest`);
  return index;
}

/**
 * Problems with the snapshots (empty when they are consistent), for `validateManifest` and the
 * maintainers' check: every listed file exists in the live tree; no file is added twice or
 * added where the parent already has it; every `before/` file is a file the checkpoint's
 * parent and target both hold, and differs from the target's version (else it changes nothing).
 */
export function snapshotProblems(manifest: Manifest = loadManifest()): string[] {
  const problems: string[] = [];
  const [first] = manifest.checkpoints;
  if (first === undefined) return ["清单里没有检查点"];
  for (const file of courseFiles(manifest)) {
    if (!existsSync(path.join(repoRoot, file))) problems.push(`${file}：列在清单里但不存在：创建它，或从清单中去掉`);
    if (file === "package.json" || file === "tsconfig.json") {
      problems.push(`${file}：树根的 package.json 与 tsconfig.json 是生成的，不要列出`);
    }
  }
  if (problems.length > 0) return problems;
  let known = new Set(first.parent.files ?? []);
  for (const checkpoint of manifest.checkpoints) {
    const where = `checkpoint ${checkpoint.id}`;
    for (const added of checkpoint.target.adds) {
      if (known.has(added))
        problems.push(`${where}：target.adds 里的 ${added} 在 parent 里已经有了：改动已有文件请用 --record-before`);
    }
    const target = targetFiles(checkpoint, manifest);
    for (const [file, before] of beforeFiles(checkpoint)) {
      const shown = `${beforeFolder(checkpoint)}/${file}`;
      if (!known.has(file))
        problems.push(`${where}：${shown} 是 parent 里没有的文件的 before：删掉它，新文件写进 target.adds`);
      else if (target.get(file) === before)
        problems.push(`${where}：${shown} 与 target 的版本相同（没有改动）：删掉它`);
    }
    known = new Set([...known, ...checkpoint.target.adds]);
  }
  return problems;
}

function readRepoFile(relative: string): string {
  try {
    return readFileSync(path.join(repoRoot, ...relative.split("/")), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new UsageError(
      `${relative} 列在课程清单里，但还不存在：先创建它，或把它从清单中去掉（npm run checkpoint -w @pi/course -- --check 列出全部问题）。`,
    );
  }
}
