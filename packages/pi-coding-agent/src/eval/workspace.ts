// A run's folder: <temp>/eval-XXXXXX/ holding workspace/ (the task's fixture), the files the task
// puts beside it, and the session file. Every path stays inside the run's folder.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface RunFolder {
  root: string;
  workspace: string;
  sessionFile: string;
}

export async function makeRunFolder(tempDir: string = os.tmpdir()): Promise<RunFolder> {
  const root = await mkdtemp(path.join(tempDir, "eval-"));
  return { root, workspace: path.join(root, "workspace"), sessionFile: path.join(root, "session.jsonl") };
}

/** Writes `files` (relative paths, posix or native) under `dir`, refusing any that would leave it. */
export async function writeFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    const full = path.resolve(dir, relative);
    if (path.relative(dir, full).startsWith("..") || path.isAbsolute(path.relative(dir, full))) {
      throw new Error(`fixture path leaves its folder: ${relative}`);
    }
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

/** The declared files as the judge sees them: content, or null when absent. */
export async function readDeclared(
  workspace: string,
  declared: readonly string[],
): Promise<Record<string, string | null>> {
  const files: Record<string, string | null> = {};
  for (const relative of declared) {
    try {
      files[relative] = await readFile(path.resolve(workspace, relative), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      files[relative] = null;
    }
  }
  return files;
}

export async function removeRunFolder(folder: Pick<RunFolder, "root">): Promise<void> {
  await rm(folder.root, { recursive: true, force: true });
}
