// --loop and --tools-from: a learner's own built code from a practice directory, taken only when
// the tree is a course tree, is built from its current sources, and passes its chapter's focused
// tests. Each refusal is one line naming what to do.
import { existsSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { runAgentLoop } from "@pi/course";
import { focusedFiles } from "@pi/course-kit";
import { type CheckpointFacts, COURSE_PACKAGE, checkpointForPackage, packageDirOf } from "./course-manifest.js";
import { RunError } from "./errors.js";
import { runFocusedTests } from "./focused-tests.js";
import type { ToolFactory } from "./tool-selection.js";

export type RunAgentLoop = typeof runAgentLoop;

/** The learner's `runAgentLoop` from the practice tree `dir` (chapter 07's package, @pi/course). */
export async function loadLearnerLoop(dir: string, from: string): Promise<RunAgentLoop> {
  return (await loadExport(dir, from, "--loop", "@pi/course", "runAgentLoop")) as RunAgentLoop;
}

/** The learner's `createWorkspaceTools` from the practice tree `dir` (chapter 08's package). */
export async function loadLearnerTools(dir: string, from: string): Promise<ToolFactory> {
  return (await loadExport(dir, from, "--tools-from", "@pi/coding-agent", "createWorkspaceTools")) as ToolFactory;
}

async function loadExport(
  dir: string,
  from: string,
  flag: string,
  packageName: string,
  exportName: string,
): Promise<(...args: never[]) => unknown> {
  const checkpoint = checkpointForPackage(packageName, flag);
  const packageDir = path.join(dir, ...packageDirOf(checkpoint).split("/"));
  const shown = shownPath(dir, from);
  if (!isDirectory(dir))
    throw new RunError(`${flag} ${shown} 不是目录：请给出练习目录，例如 ${flag} practice/${checkpoint.id}。`);
  if (!existsSync(path.join(packageDir, "package.json"))) {
    throw new RunError(
      `${shown} 里没有 ${packageName}：请给出第 ${checkpoint.id} 章的练习目录（npm run practice -w ${COURSE_PACKAGE} -- ${checkpoint.id} 创建）。`,
    );
  }
  const entry = path.join(packageDir, "dist", "src", "index.js");
  const stale = await staleSource(packageDir);
  if (!existsSync(entry) || stale !== undefined) {
    const why = existsSync(entry) ? `构建已过期（${stale} 和上一次成功的构建不一样）` : "还没有构建";
    throw new RunError(`${shown} ${why}：请在其中运行 ${checkpoint.build}。`);
  }
  await requireFocusedTestsPass(dir, shown, checkpoint);

  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    throw new RunError(
      `无法加载 ${shown} 的 ${packageName}（${(error as Error).message}）：请重新构建：${checkpoint.build}。`,
    );
  }
  const value = module[exportName];
  if (typeof value !== "function") {
    throw new RunError(
      `${shown} 的 ${packageName} 没有导出函数 ${exportName}：请在 src/index.ts 里导出它，再运行 ${checkpoint.build}。`,
    );
  }
  return value as (...args: never[]) => unknown;
}

async function requireFocusedTestsPass(dir: string, shown: string, checkpoint: CheckpointFacts): Promise<void> {
  const files = await focusedFiles(dir, checkpoint.focusedRun);
  if (files.length === 0) throw new RunError(`${shown} 没有编译好的聚焦测试：请在其中运行 ${checkpoint.build}。`);
  const verdict = await runFocusedTests(dir, files);
  if (verdict.passed) return;
  const counts = verdict.counts === undefined ? "" : `（通过 ${verdict.counts}）`;
  const what = verdict.timedOut ? "聚焦测试超时未结束" : `第 ${checkpoint.id} 章的聚焦测试没有全部通过${counts}`;
  throw new RunError(
    `${shown} ${what}：先完成 Lab，进度与提示见 npm run verify -w ${COURSE_PACKAGE} -- ${checkpoint.id} ${shown}。`,
  );
}

/**
 * The first source file that differs from what the last successful build compiled, relative to
 * the package. Each source map carries its source (inlineSources); file times would not do, as
 * `tsc -b` leaves the output alone when a saved file's content is what it compiled before.
 */
async function staleSource(packageDir: string): Promise<string | undefined> {
  for (const folder of ["src", "test"]) {
    for (const relative of await tsFilesUnder(path.join(packageDir, folder))) {
      const source = path.join(packageDir, folder, relative);
      const map = path.join(packageDir, "dist", folder, relative.replace(/\.ts$/, ".js.map"));
      if ((await compiledSource(map)) !== (await readFile(source, "utf8"))) {
        return path.posix.join(folder, relative.split(path.sep).join("/"));
      }
    }
  }
  return undefined;
}

async function compiledSource(map: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(map, "utf8")) as { sourcesContent?: string[] }).sourcesContent?.[0];
  } catch {
    return undefined;
  }
}

/** TypeScript sources under `dir`, relative to it, sorted; empty when there is no such folder. */
async function tsFilesUnder(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await tsFilesUnder(dir, relative)));
    else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(relative);
  }
  return files.sort();
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** `dir` as the person typed it: relative to where they ran the command when it is below it. */
export function shownPath(dir: string, from: string): string {
  const relative = path.relative(from, dir);
  if (relative === "") return ".";
  return !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : dir;
}
