// Builds a checkpoint tree with the chapter's build command and runs its focused tests the way
// the chapter does (`node --test [--test-name-pattern=…] <focused files>`), reading the counts
// from the TAP report. The focused glob is expanded here: Node 20 does not expand globs.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { runNode, runNpm } from "./child-process.js";
import type { Checkpoint } from "./manifest.js";
import { UsageError } from "./usage-error.js";

export interface BuildResult {
  ok: boolean;
  output: string;
  /** The compiler's first error line (e.g. `src/x.ts(3,1): error TS2304: …`), when the build failed. */
  firstError?: string;
}

export interface FocusedFailure {
  /** The failing test's name. */
  test: string;
  /** The error message the runner reports for it (first line of a multi-line message). */
  error: string;
}

export interface FocusedTest {
  name: string;
  /** `skip` is also what Node 20 reports for a test the name pattern filtered out. */
  status: "pass" | "fail" | "skip";
}

export interface FocusedResult {
  /** Every top-level test the runner reported, in order. */
  results: FocusedTest[];
  tests: number;
  pass: number;
  fail: number;
  skipped: number;
  /** Tests the pattern selected: `tests − skipped` (Node 20 counts filtered-out tests as skipped). */
  selected: number;
  firstFailure?: FocusedFailure;
  output: string;
}

/** The checkpoint's build command as npm arguments, e.g. `["run", "build", "-w", "@pi/course"]`. */
export function buildArgs(checkpoint: Checkpoint): string[] {
  const [tool, ...args] = checkpoint.build.split(/\s+/);
  if (tool !== "npm") throw new Error(`manifest: build command must start with npm, got "${checkpoint.build}"`);
  return args;
}

/** Runs the checkpoint's build command (`npm run build -w @pi/course`) in the tree `dir`. */
export async function buildTree(dir: string, checkpoint: Checkpoint): Promise<BuildResult> {
  return npmBuild(dir, buildArgs(checkpoint));
}

/** Runs `npm <args>` as a build in `dir`; the first `error` line of the output is the first error. */
export async function npmBuild(dir: string, args: string[]): Promise<BuildResult> {
  const { code, output } = await runNpm(args, dir);
  if (code === 0) return { ok: true, output };
  const firstError =
    output.split(/\r?\n/).find((line) => /error TS\d+/.test(line)) ??
    output.split(/\r?\n/).find((line) => /error/i.test(line));
  return firstError === undefined ? { ok: false, output } : { ok: false, output, firstError: firstError.trim() };
}

/** The focused test files of the tree `dir`, relative to it (posix), from the manifest's `focusedRun` glob. */
export async function focusedFiles(dir: string, checkpoint: Checkpoint): Promise<string[]> {
  const folder = path.posix.dirname(checkpoint.focusedRun);
  const pattern = globToRegExp(path.posix.basename(checkpoint.focusedRun));
  const names = await readdir(path.join(dir, ...folder.split("/"))).catch(() => [] as string[]);
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

/** Runs the focused tests of the built tree `dir`, optionally only those whose name matches `pattern`. */
export async function runFocused(
  dir: string,
  checkpoint: Checkpoint,
  pattern?: string,
  runTimeoutMs: number = RUN_TIMEOUT_MS,
): Promise<FocusedResult> {
  const files = await focusedFiles(dir, checkpoint);
  if (files.length === 0)
    throw new Error(`no focused test file matches ${checkpoint.focusedRun} in ${dir}: build it first`);
  // Hang guards, not speed checks: a test waiting on a timer forever fails alone after
  // TEST_TIMEOUT_MS; a synchronous infinite loop, which no test timeout can interrupt, ends the run.
  const args = ["--test", "--test-reporter=tap", `--test-timeout=${TEST_TIMEOUT_MS}`];
  if (pattern !== undefined) args.push(`--test-name-pattern=${pattern}`);
  const { code, output } = await runNode([...args, ...files], dir, runTimeoutMs);
  if (code === null) {
    throw new UsageError(
      `聚焦测试 ${runTimeoutMs / 1000} 秒后仍未结束，已被终止：检查 agent-loop.ts 里是否有不会结束的同步循环。`,
    );
  }
  return parseTap(output);
}

const TEST_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 120_000;

/**
 * Runs every compiled test of the built tree `dir` (`packages/*\/dist/test/**\/*.test.js`), as
 * the repository's own `npm test` does; an empty list when the tree has no tests.
 */
export async function runTreeTests(dir: string): Promise<{ files: string[]; result?: FocusedResult }> {
  const files: string[] = [];
  for (const pkg of await readdir(path.join(dir, "packages")).catch(() => [] as string[])) {
    const testDir = path.join(dir, "packages", pkg, "dist", "test");
    const entries = await readdir(testDir, { recursive: true }).catch(() => [] as string[]);
    for (const entry of entries.filter((name) => name.endsWith(".test.js")).sort()) {
      files.push(["packages", pkg, "dist", "test", ...entry.split(path.sep)].join("/"));
    }
  }
  if (files.length === 0) return { files };
  const { output } = await runNode(["--test", "--test-reporter=tap", ...files], dir);
  return { files, result: parseTap(output) };
}

/** Reads the summary counts and the first failure out of a TAP report. */
export function parseTap(output: string): FocusedResult {
  const count = (name: string): number => {
    const match = new RegExp(`^# ${name} (\\d+)$`, "m").exec(output);
    if (match?.[1] === undefined) throw new Error(`test runner printed no "# ${name}" count:\n${output}`);
    return Number(match[1]);
  };
  const tests = count("tests");
  const skipped = count("skipped");
  const result: FocusedResult = {
    results: topLevelTests(output),
    tests,
    pass: count("pass"),
    fail: count("fail"),
    skipped,
    selected: tests - skipped,
    output,
  };
  const firstFailure = firstTapFailure(output);
  if (firstFailure !== undefined) result.firstFailure = firstFailure;
  return result;
}

function topLevelTests(output: string): FocusedTest[] {
  const tests: FocusedTest[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^(not ok|ok) \d+ - (.*?)( # (SKIP|TODO)\b.*)?$/.exec(line);
    if (match === null) continue;
    const status = match[4] !== undefined ? "skip" : match[1] === "ok" ? "pass" : "fail";
    tests.push({ name: match[2] ?? "", status });
  }
  return tests;
}

function firstTapFailure(output: string): FocusedFailure | undefined {
  const lines = output.split(/\r?\n/);
  const index = lines.findIndex((line) => /^\s*not ok \d+ - /.test(line));
  const header = lines[index];
  if (header === undefined) return undefined;
  const test = header.replace(/^\s*not ok \d+ - /, "").replace(/ # .*$/, "");
  for (let i = index + 1; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    if (/^\s*\.\.\.$/.test(line)) break;
    const match = /^(\s*)error: (.*)$/.exec(line);
    if (match === null) continue;
    const value = match[2] ?? "";
    if (value === "|-" || value === "|" || value === ">-") return { test, error: (lines[i + 1] ?? "").trim() };
    return { test, error: unquoteYaml(value) };
  }
  return { test, error: "" };
}

function unquoteYaml(value: string): string {
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  if (value.startsWith('"') && value.endsWith('"')) return JSON.parse(value) as string;
  return value;
}
