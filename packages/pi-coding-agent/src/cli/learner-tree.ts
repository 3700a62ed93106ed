// The checks and the loading behind --from, --loop and --tools-from (learner-code.ts says what
// is taken): a learner's own built code from a practice directory, taken only when the tree is a
// course tree, every package it comes from is built from its current sources, and the focused
// tests of every chapter it runs pass. Each refusal is one line naming what to do.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { focusedFiles, staleSource } from "@pi/course-kit";
import { RunError } from "../host/errors.js";
import { type CheckpointFacts, COURSE_PACKAGE, courseCheckpoints, packageDirOf } from "./course-manifest.js";
import { compiledDigest, focusedRunKey, passedBefore, recordPass } from "./focused-pass-record.js";
import { runFocusedTests } from "./focused-tests.js";

export interface LoadedPackage {
  /** The package's built entry (`dist/src/index.js`), imported from the practice tree. */
  module: Record<string, unknown>;
  /** Throws the one line that names a missing export. */
  requireFunction(name: string): void;
}

export interface PackageWish {
  /** The checkpoints whose package is wanted, in the course's order. */
  wanted: readonly string[];
  /** Take only the wanted checkpoints whose teaching files are all in the tree (--from). */
  presentOnly: boolean;
  /** The earlier checkpoints whose code a checkpoint's exports run. */
  usesOf(id: string): readonly string[];
}

/**
 * Each wanted checkpoint's package, imported from the practice tree `dir` once every check
 * passed; keyed by checkpoint id. `flag` is the option that named `dir`, for the messages.
 */
export async function loadPracticePackages(
  dir: string,
  from: string,
  flag: string,
  wish: PackageWish,
): Promise<Map<string, LoadedPackage>> {
  const checkpoints = courseCheckpoints();
  const byId = new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint]));
  // A row of a chapter the course does not have yet is simply not there.
  const wanted = wish.wanted.flatMap((id) => byId.get(id) ?? []);
  const shown = shownPath(dir, from);
  const example = wanted.at(-1)?.id ?? checkpoints.at(-1)?.id ?? "07";
  if (!isDirectory(dir)) {
    throw new RunError(`${flag} ${shown} 不是目录：请给出练习目录，例如 ${flag} practice/${example}。`);
  }
  const taken = wish.presentOnly ? wanted.filter((checkpoint) => teachingFilesIn(dir, checkpoint)) : wanted;
  if (taken.length === 0) {
    const first = wanted[0]?.id ?? example;
    throw new RunError(
      `${shown} 里没有 tiny-pi 能运行的练习代码：请给出第 ${first} 章或之后的练习目录（npm run practice -w ${COURSE_PACKAGE} -- ${example} 创建）。`,
    );
  }
  for (const checkpoint of taken) {
    if (!existsSync(path.join(packageFolder(dir, checkpoint), "package.json"))) {
      throw new RunError(
        `${shown} 里没有 ${checkpoint.package}：请给出第 ${checkpoint.id} 章的练习目录（npm run practice -w ${COURSE_PACKAGE} -- ${checkpoint.id} 创建）。`,
      );
    }
  }
  const proven = provenCheckpoints(taken, wish, byId);
  // Later chapters' packages first: their build (tsc -b) builds the earlier packages they reference,
  // so the one command named is the one that helps most.
  for (const checkpoint of uniqueByPackage([...[...taken].reverse(), ...proven])) {
    await requireFreshBuild(dir, shown, checkpoint);
  }
  const digest = compiledDigest(dir);
  for (const checkpoint of proven) await requireFocusedTestsPass(dir, shown, checkpoint, digest);

  const loaded = new Map<string, LoadedPackage>();
  for (const checkpoint of taken) loaded.set(checkpoint.id, await importPackage(dir, shown, checkpoint));
  return loaded;
}

/** The taken checkpoints and every one their code runs, in the course's order. */
function provenCheckpoints(
  taken: CheckpointFacts[],
  wish: PackageWish,
  byId: Map<string, CheckpointFacts>,
): CheckpointFacts[] {
  const ids = new Set(taken.map((checkpoint) => checkpoint.id));
  for (const checkpoint of taken) for (const used of wish.usesOf(checkpoint.id)) ids.add(used);
  return [...byId.values()].filter((checkpoint) => ids.has(checkpoint.id));
}

function uniqueByPackage(checkpoints: CheckpointFacts[]): CheckpointFacts[] {
  const seen = new Set<string>();
  return checkpoints.filter((checkpoint) => !seen.has(checkpoint.package) && seen.add(checkpoint.package));
}

function teachingFilesIn(dir: string, checkpoint: CheckpointFacts): boolean {
  return checkpoint.teachingFiles.every((file) => existsSync(path.join(dir, ...file.split("/"))));
}

function packageFolder(dir: string, checkpoint: CheckpointFacts): string {
  return path.join(dir, ...packageDirOf(checkpoint).split("/"));
}

function entryOf(dir: string, checkpoint: CheckpointFacts): string {
  return path.join(packageFolder(dir, checkpoint), "dist", "src", "index.js");
}

async function requireFreshBuild(dir: string, shown: string, checkpoint: CheckpointFacts): Promise<void> {
  const entry = entryOf(dir, checkpoint);
  const stale = await staleSource(packageFolder(dir, checkpoint));
  if (existsSync(entry) && stale === undefined) return;
  const why = existsSync(entry) ? `构建已过期（${stale} 和上一次成功的构建不一样）` : "还没有构建";
  throw new RunError(`${shown} ${why}：请在其中运行 ${checkpoint.build}。`);
}

async function importPackage(dir: string, shown: string, checkpoint: CheckpointFacts): Promise<LoadedPackage> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entryOf(dir, checkpoint)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new RunError(
      `无法加载 ${shown} 的 ${checkpoint.package}（${(error as Error).message.split("\n")[0]}）：请重新构建：${checkpoint.build}。`,
    );
  }
  return {
    module,
    requireFunction(name) {
      if (typeof module[name] === "function") return;
      throw new RunError(
        `${shown} 的 ${checkpoint.package} 没有导出函数 ${name}：请在 src/index.ts 里导出它，再运行 ${checkpoint.build}。`,
      );
    },
  };
}

async function requireFocusedTestsPass(
  dir: string,
  shown: string,
  checkpoint: CheckpointFacts,
  digest: string,
): Promise<void> {
  const files = await focusedFiles(dir, checkpoint.focusedRun);
  if (files.length === 0)
    throw new RunError(`${shown} 没有编译好的第 ${checkpoint.id} 章聚焦测试：请在其中运行 ${checkpoint.build}。`);
  const key = focusedRunKey(digest, checkpoint.id);
  if (passedBefore(key)) return;
  const verdict = await runFocusedTests(dir, files);
  if (verdict.passed) {
    recordPass(key);
    return;
  }
  const counts = verdict.counts === undefined ? "" : `（通过 ${verdict.counts}）`;
  const what = verdict.timedOut
    ? `第 ${checkpoint.id} 章的聚焦测试超时未结束`
    : `第 ${checkpoint.id} 章的聚焦测试没有全部通过${counts}`;
  throw new RunError(
    `${shown} ${what}：先完成 Lab，进度与提示见 npm run verify -w ${COURSE_PACKAGE} -- ${checkpoint.id} ${shown}。`,
  );
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
