// Builds a checkpoint tree with the chapter's build command and runs its focused tests the way
// the chapter does (`node --test [--test-name-pattern=…] <focused files>`), reading the counts
// from the TAP report. The focused glob is expanded here: Node 20 does not expand globs.

import { existsSync } from "node:fs";
import path from "node:path";
import {
  focusedFiles as expandFocusedRun,
  makeRunTemp,
  staleSource,
} from "../../../packages/pi-course-kit/src/index.js";
import { type FocusedResult, parseTap } from "../../../packages/pi-course-kit/src/tap-report.js";
import { cleanupOnSignal } from "../cleanup-on-signal.js";
import { type Checkpoint, focusedTestCount } from "../course/manifest.js";
import { compiledTestFiles } from "../course/test-files.js";
import { labChanges } from "../diff/lab-regions.js";
import { LearnerError, RunTimeoutError } from "../usage-error.js";
import { runNode, runNpm } from "./child-process.js";
import { startTestTrace } from "./test-trace.js";
import { directCompilerRun, workspaceFolder, workspaceFolders } from "./workspace-script.js";

export type { FocusedFailure, FocusedResult, FocusedTest } from "../../../packages/pi-course-kit/src/tap-report.js";

export interface BuildResult {
  ok: boolean;
  output: string;
  /** The compiler's first error line (e.g. `src/x.ts(3,1): error TS2304: …`), when the build failed. */
  firstError?: string;
  /** Every compiler error line (`… error TS…`), in the compiler's order. */
  errors: string[];
}

/** The checkpoint's build command as npm arguments, e.g. `["run", "build", "-w", "@pi/course"]`. */
export function buildArgs(checkpoint: Checkpoint): string[] {
  const [tool, ...args] = checkpoint.build.split(/\s+/);
  if (tool !== "npm") throw new Error(`manifest: build command must start with npm, got "${checkpoint.build}"`);
  return args;
}

/**
 * Runs the checkpoint's build command (`npm run build -w @pi/course`) in the tree `dir`. The
 * compiler names files relative to the package it builds; `errors` name them relative to `dir`.
 */
export async function buildTree(dir: string, checkpoint: Checkpoint): Promise<BuildResult> {
  let build = await npmBuild(dir, buildArgs(checkpoint));
  // `tsc -b` judges by file times: a source restored with its old time (cp -p, a backup, an
  // editor's undo) leaves the old output in place. Compiled output that differs from its sources'
  // contents is rebuilt from scratch, so no lab is judged on a stale build.
  if (build.ok && (await staleWorkspace(dir)) !== undefined) {
    build = await npmBuild(dir, [...buildArgs(checkpoint), "--", "--force"]);
  }
  const folder = await workspaceFolder(dir, checkpoint.package);
  if (folder === undefined) return build;
  const errors = build.errors.map((line) => rebaseErrorPath(line, path.join(dir, folder), dir));
  return { ...build, errors };
}

/** `src/x.ts(3,1): error …` compiled in `from`, with its path made relative to `to` (posix separators). */
export function rebaseErrorPath(line: string, from: string, to: string): string {
  const match = /^(.+?)(\(\d+,\d+\): error TS\d+.*)$/.exec(line);
  if (match === null) return line;
  const relative = path.relative(to, path.resolve(from, match[1] ?? ""));
  return `${relative.split(path.sep).join("/")}${match[2]}`;
}

/** The first built workspace package of the tree `dir` whose output differs from its sources, as `folder/file`. */
export async function staleWorkspace(dir: string): Promise<string | undefined> {
  for (const folder of await workspaceFolders(dir)) {
    const packageDir = path.join(dir, folder);
    if (!existsSync(path.join(packageDir, "dist"))) continue;
    const stale = await staleSource(packageDir);
    if (stale !== undefined) return `${folder}/${stale}`;
  }
  return undefined;
}

/** Runs `npm <args>` as a build in `dir`; the first `error` line of the output is the first error. */
export async function npmBuild(dir: string, args: string[]): Promise<BuildResult> {
  const direct = await directCompilerRun(dir, args);
  const { code, output } =
    direct === undefined ? await runNpm(args, dir) : await runNode([direct.tsc, ...direct.args], direct.cwd);
  if (code === 0) return { ok: true, output, errors: [] };
  const lines = output.split(/\r?\n/);
  const errors = lines.filter((line) => /error TS\d+/.test(line)).map((line) => line.trim());
  const firstError = errors[0] ?? lines.find((line) => /error/i.test(line))?.trim();
  return firstError === undefined ? { ok: false, output, errors } : { ok: false, output, firstError, errors };
}

/** The focused test files of the tree `dir`, relative to it (posix), from the manifest's `focusedRun` glob. */
export function focusedFiles(dir: string, checkpoint: Checkpoint): Promise<string[]> {
  return expandFocusedRun(dir, checkpoint.focusedRun);
}

/**
 * Runs the focused tests of the built tree `dir`, optionally only those whose name matches `pattern`
 * (one lab's), or any of several patterns (several labs' tests in one run).
 */
export async function runFocused(
  dir: string,
  checkpoint: Checkpoint,
  pattern?: string | readonly string[],
  signal?: AbortSignal,
  { runMs = RUN_TIMEOUT_MS, fileMs = TEST_TIMEOUT_MS }: { runMs?: number; fileMs?: number } = {},
): Promise<FocusedResult> {
  const files = await focusedFiles(dir, checkpoint);
  if (files.length === 0) {
    throw new LearnerError(`${dir} 里没有与 ${checkpoint.focusedRun} 匹配的聚焦测试：先运行 ${checkpoint.build}。`);
  }
  // Hang guards, not speed checks: a focused test file gives each test its own, shorter timeout,
  // which names the test; `fileMs` bounds each file. A timer left running after the tests must
  // not keep the run alive (--test-force-exit, Node >= 20.14); `runMs` ends a run whose test
  // runner itself does not come back.
  // Source maps put a thrown error's frames in the learner's .ts files, which verify then names.
  const args = ["--enable-source-maps", "--test", "--test-reporter=tap", `--test-timeout=${fileMs}`];
  if (hasTestForceExit(process.versions.node)) args.push("--test-force-exit");
  for (const one of typeof pattern === "string" ? [pattern] : (pattern ?? [])) args.push(`--test-name-pattern=${one}`);
  // A hung run names the lab it ran; a run of several labs names the chapter's files.
  const labPattern = typeof pattern === "string" ? pattern : undefined;
  const runOnce = async (): Promise<FocusedResult> => {
    const trace = startTestTrace(dir, path.posix.dirname(checkpoint.focusedRun));
    // The tests' temp folders go with the run, also when it is stopped midway (run-temp.ts).
    const temp = makeRunTemp();
    const releaseTemp = cleanupOnSignal(() => temp.remove());
    try {
      const { code, output } = await runNode([...trace.args, ...args, ...files], dir, runMs, signal, temp.env);
      if (signal?.aborted === true) throw new RunCancelledError();
      if (code === null) throw spinning(checkpoint, labPattern, runMs, trace.lastStarted());
      const result = parseTap(output);
      // Every focused test has its own timeout, which a test whose promise never settles meets and
      // names. A timeout of a whole file means its process never got back to its event loop.
      const failure = result.firstFailure;
      if (failure?.hung === true && files.some((file) => path.resolve(dir, file) === path.resolve(dir, failure.test))) {
        throw trace.loopAliveAfterStart()
          ? waiting(checkpoint, labPattern, fileMs, trace.lastStarted())
          : spinning(checkpoint, labPattern, fileMs, trace.lastStarted());
      }
      // A process that died reports only its file: the trace names the test it was in.
      if (failure?.crashed !== undefined) failure.test = trace.lastStarted() ?? failure.test;
      return result;
    } finally {
      trace.remove();
      temp.remove();
      releaseTemp();
    }
  };
  const result = await runOnce();
  // With --test-force-exit, Node's runner can drop the last verdicts of a file on a loaded machine
  // (nodejs/node#64833, seen on Node 24): fewer tests than the manifest says. Such a run is repeated once.
  // A run of several labs is not counted here: verifyTreeAtOnce checks each lab's count.
  const expected =
    pattern === undefined
      ? focusedTestCount(checkpoint)
      : labPattern === undefined
        ? undefined
        : checkpoint.labs.find((lab) => lab.pattern === labPattern)?.expected;
  // A run whose process died is not one of those: running it again would only die again.
  const dropped = expected !== undefined && result.selected < expected && result.firstFailure?.crashed === undefined;
  return dropped ? runOnce() : result;
}

function spinning(checkpoint: Checkpoint, pattern: string | undefined, afterMs: number, test: string | undefined) {
  return new RunTimeoutError(
    `聚焦测试 ${afterMs / 1000} 秒后仍未结束，已被终止：检查 ${suspectFiles(checkpoint, pattern)} 里是否有不会结束的循环` +
      "（同步循环，或每一轮都立刻兑现的 await 循环：两者都不让出事件循环）。",
    test,
  );
}

/** A file stopped at its timeout while its event loop still ran: a test waiting on something that never comes. */
function waiting(checkpoint: Checkpoint, pattern: string | undefined, afterMs: number, test: string | undefined) {
  return new RunTimeoutError(
    `聚焦测试 ${afterMs / 1000} 秒后仍未结束，已被终止：测试在等一个永远不 settle 的 Promise` +
      `（漏了 await、resolve 或 return，或一个不会到来的事件、不会退出的子进程）：检查 ${suspectFiles(checkpoint, pattern)}。`,
    test,
  );
}

/**
 * Where to look first: the files the running lab writes (`Lab 13.3 写的 runtime.ts`), then the
 * chapter's other teaching files; all of them when the run was not one lab's.
 */
export function suspectFiles(checkpoint: Checkpoint, pattern: string | undefined): string {
  const lab = checkpoint.labs.find((candidate) => candidate.pattern === pattern);
  if (lab === undefined) return teachingNames(checkpoint);
  const own = new Set(labChanges(checkpoint, lab.id).map((change) => change.file));
  const others = checkpoint.teachingFiles.filter((file) => !own.has(file)).map((file) => path.posix.basename(file));
  if (own.size === 0) return teachingNames(checkpoint);
  const names = [...own].map((file) => path.posix.basename(file)).join("、");
  return `Lab ${lab.id} 写的 ${names}${others.length === 0 ? "" : `（也可能在本章的 ${others.join("、")}）`}`;
}

/** The teaching files' names, as the learner sees them in their editor: `agent-loop.ts`. */
export function teachingNames(checkpoint: Checkpoint): string {
  return checkpoint.teachingFiles.map((file) => path.posix.basename(file)).join("、");
}

const TEST_TIMEOUT_MS = 30_000;

/** `node --test-force-exit` exists from Node 20.14 and 22.0 (not in 21). */
export function hasTestForceExit(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major >= 22 || (major === 20 && minor >= 14);
}

/** A focused run stopped because its result is no longer wanted (a newer save in verify --watch). */
export class RunCancelledError extends Error {
  override name = "RunCancelledError";
  constructor() {
    super("focused run cancelled");
  }
}
// Node 24 lets a file that never yields run past its timeout: this ends it soon after.
const RUN_TIMEOUT_MS = 40_000;

/**
 * Runs every compiled test of the built tree `dir` (`packages/*\/dist/test/**\/*.test.js`), as
 * the repository's own `npm test` does; an empty list when the tree has no tests.
 */
export async function runTreeTests(dir: string): Promise<{ files: string[]; result?: FocusedResult }> {
  const files = await compiledTestFiles(dir);
  if (files.length === 0) return { files };
  const { output } = await runNode(["--test", "--test-reporter=tap", ...files], dir);
  return { files, result: parseTap(output) };
}
