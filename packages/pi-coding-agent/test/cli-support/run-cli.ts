// Runs the built tiny-pi as a real child process in a temp workspace, the way a learner runs it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The compiled CLI: this file is dist/test/cli-support/run-cli.js. */
export const cliPath = fileURLToPath(new URL("../../src/cli/main.js", import.meta.url));

/** The repository root, for tests that use the course machinery (this file is 5 levels below it). */
export const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));

/** The chapter's README: its first line names the project. */
export const README = "# tiny-pi\nA small agent runtime.\n";

export interface CliResult {
  code: number | null;
  /** The signal that ended the process (a SIGKILL the test or TINY_PI_KILL_AT sent), else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A tiny-pi home no test creates: tiny-pi reads ~/.tiny-pi (global AGENTS.md, skills, extensions, the
 * trust record) from TINY_PI_HOME, so no test ever reads or writes the real home. Tests of the home
 * give their own temp folder.
 */
export const ABSENT_HOME = path.join(os.tmpdir(), "tiny-pi-tests-no-home");

/** The environment of a learner's shell: no inherited key, colour or npm/test variables; TINY_PI_HOME absent. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const upper = key.toUpperCase();
    if (upper === "OPENAI_API_KEY" || upper === "NO_COLOR" || upper === "INIT_CWD" || upper.startsWith("NPM_"))
      continue;
    if (upper === "NODE_TEST_CONTEXT") continue;
    env[key] = value;
  }
  return { ...env, TINY_PI_HOME: ABSENT_HOME, ...extra };
}

export function startCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = cliEnv()): ChildProcess {
  return spawn(process.execPath, [cliPath, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
}

export async function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    stdout += text;
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  return { code, signal, stdout, stderr };
}

/** Runs tiny-pi with `args` in `cwd` to its end. */
export function runCli(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<CliResult> {
  return finished(startCli(args, cwd, env));
}

/** A temp workspace holding the chapter's README.md, removed after `use` whatever happens. */
export async function withWorkspace<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "tiny-pi-cli-")));
  try {
    await writeFile(path.join(dir, "README.md"), README);
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The session files tiny-pi wrote in `workspace`, as absolute paths, oldest first. */
export async function sessionFiles(workspace: string): Promise<string[]> {
  const dir = path.join(workspace, ".tiny-pi", "sessions");
  if (!existsSync(dir)) return [];
  return (await readdir(dir))
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Every entry of a session file (Pi's format 3) after its header, in file order, but chapter 19's durable records. */
export async function sessionEntries<Entry = { type: string; id: string; [key: string]: unknown }>(
  file: string,
): Promise<Entry[]> {
  return (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => JSON.parse(line) as Entry & { customType?: string })
    .filter((entry) => entry.customType !== "tiny-pi/durable"); // chapter 19's records annotate entries
}

/** The messages of a session file (Pi's format 3): its message entries, in file order. */
export async function sessionMessages(file: string): Promise<{ role: string; [key: string]: unknown }[]> {
  const content = await readFile(file, "utf8");
  return content
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.type === "message")
    .map((entry) => entry.message);
}

/** Writes `messages` as a session file in Pi's format 3: a header, then one chain of message entries. */
export async function writeSession(file: string, messages: object[], cwd = path.dirname(file)): Promise<string[]> {
  const at = "2026-12-01T10:00:00.000Z";
  const header = { type: "session", version: 3, id: "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e", timestamp: at, cwd };
  const ids = messages.map((_, index) => (index + 1).toString(16).padStart(8, "0"));
  const entries = messages.map((message, index) => ({
    type: "message",
    id: ids[index],
    parentId: index === 0 ? null : ids[index - 1],
    timestamp: at,
    message,
  }));
  await writeFile(file, [header, ...entries].map((line) => `${JSON.stringify(line)}\n`).join(""));
  return ids;
}

/** A one-line message with no stack trace: what every failure must look like. */
export function isOneLine(text: string): boolean {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines.length === 1 && !/^\s+at /m.test(text);
}
