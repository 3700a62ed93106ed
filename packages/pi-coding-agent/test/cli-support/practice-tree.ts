// Practice trees for the tests of --from, --loop and --tools-from: a checkpoint's target written by
// the course's own machinery (checkpoint --write target) into a real temp folder, with its
// node_modules linked as `practice` links them, and built as the chapter says.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readManifest } from "@pi/course-kit";
import { cliEnv, repoRoot } from "./run-cli.js";

export const manifest = readManifest(path.join(repoRoot, "packages/pi-course/checkpoints/manifest.json"));

/** Writes checkpoint `id`'s target tree into `dir` through the course's own machinery. */
export function writeTarget(id: string, dir: string): void {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/checkpoint.ts", id, "--write", "target", dir],
    { cwd: repoRoot, env: cliEnv(), encoding: "utf8" },
  );
  assert.equal(result.status, 0, result.stderr);
}

/** The chapter's build (`npm run build -w <package>` is `tsc -b` in the package folder, references included). */
export function build(tree: string, packageDir: string): void {
  const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-b", path.join(tree, packageDir)], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
}

export async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "tiny-pi-loop-")));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Puts `statement` right after `anchor` (the opening line of a function) in the tree's `file`; the anchor must be there once. */
export async function insertAfter(tree: string, file: string, anchor: string, statement: string): Promise<void> {
  const full = path.join(tree, file);
  const source = await readFile(full, "utf8");
  assert.equal(source.split(anchor).length, 2, `${file} 里恰好有一处 ${anchor}`);
  await writeFile(full, source.replace(anchor, `${anchor}\n${statement}`));
}
