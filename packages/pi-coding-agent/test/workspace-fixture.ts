// Test helpers: a real workspace in a temp folder (with a sibling folder outside it), the tools
// bound to it, and calls made through chapter 06's executeToolCall, as the loop makes them.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  executeToolCall,
  type TextContent,
  type Tool,
  type ToolCall,
  type ToolExecutionContext,
  ToolRegistry,
  type ToolResultMessage,
} from "@pi/core";
import { createWorkspaceTools, type WorkspaceToolsOptions } from "../src/index.js";

export interface Workspace {
  /** The workspace root the tools are bound to. */
  root: string;
  /** A folder beside the workspace, holding `secret.txt`: what an escape would reach. */
  outside: string;
  tools: ToolRegistry;
  /** Runs one tool call through executeToolCall and returns its paired result. */
  call(name: string, args: Record<string, unknown>, context?: ToolExecutionContext): Promise<ToolResultMessage>;
  /** Writes a file inside the workspace (parents created) and returns its absolute path. */
  put(relative: string, content: string | Buffer): Promise<string>;
  /** A workspace file's content. */
  contentOf(relative: string): Promise<string>;
}

export const SECRET = "TOP-SECRET-VALUE\n";

let callCount = 0;

const UNFINISHED_LAB = /^Lab 8\.\d+ .+ 尚未实现$/;

/** Makes a workspace and an outside folder, runs `use`, and removes both whatever happens. */
export async function withWorkspace<T>(
  use: (workspace: Workspace) => Promise<T>,
  options?: WorkspaceToolsOptions,
): Promise<T> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "pi-tools-test-")));
  const root = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), SECRET);
  const tools = new ToolRegistry();
  for (const tool of createWorkspaceTools(root, options)) tools.register(tool);
  const workspace: Workspace = {
    root,
    outside,
    tools,
    async call(name, args, context = {}) {
      callCount += 1;
      const toolCall: ToolCall = { type: "toolCall", id: `call-${callCount}`, name, arguments: args };
      const result = await executeToolCall(toolCall, tools, context);
      // In the starter an unfinished lab throws; executeToolCall pairs that as an isError result.
      // Rethrown, it is what the test reports: the learner sees which lab to write next.
      const message = resultText(result);
      if (result.isError && UNFINISHED_LAB.test(message)) throw new Error(message);
      return result;
    },
    async put(relative, content) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    contentOf(relative) {
      return readFile(path.join(root, relative), "utf8");
    },
  };
  try {
    return await use(workspace);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

/** The text of a result's content blocks, joined. */
export function resultText(result: { content: TextContent[] }): string {
  return result.content.map((block) => block.text).join("\n");
}

/** `count` numbered lines: "line 1\nline 2\n…". */
export function numberedLines(count: number, from = 1): string {
  return Array.from({ length: count }, (_, index) => `line ${from + index}\n`).join("");
}

/** The compiled package entry, for scripts run in a child node. */
export const packageEntry = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src", "index.js"),
).href;

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an ES module script in a fresh `node` and collects its output. */
export function runNodeScript(script: string, env: NodeJS.ProcessEnv = process.env): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Peak resident memory (MiB) of a child node that imports the tools and runs `body` (an async
 * function body with `createWorkspaceTools` in scope), and of the same child doing nothing.
 */
export async function peakMemoryMiB(body: string): Promise<{ peak: number; baseline: number; output: string }> {
  const script = (work: string) => `
    import { createWorkspaceTools } from ${JSON.stringify(packageEntry)};
    const output = await (async () => { ${work} })();
    console.log(JSON.stringify({ maxRSS: process.resourceUsage().maxRSS, output: String(output ?? "") }));`;
  const [measured, idle] = await Promise.all([runNodeScript(script(body)), runNodeScript(script("return ''"))]);
  const parse = (run: ChildRun) => {
    if (run.code !== 0) throw new Error(`child node failed (${String(run.code)}): ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split("\n").pop() ?? "") as { maxRSS: number; output: string };
  };
  const [peak, baseline] = [parse(measured), parse(idle)];
  return { peak: peak.maxRSS / 1024, baseline: baseline.maxRSS / 1024, output: peak.output };
}

/** True while process `pid` runs; a zombie (ended, not yet reaped by init) is not running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  try {
    // /proc/PID/stat: "pid (comm) S …"; the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * Whether the process whose pid the file `pidFile` holds has ended and been reaped (kill(pid, 0) fails,
 * a zombie still answers it); false before the file is written.
 */
export function pidFileProcessReaped(pidFile: string): boolean {
  const pid = existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() : "";
  if (pid === "") return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch {
    return true;
  }
}

/** One tool of createWorkspaceTools(root, options), by name. */
export function workspaceTool(root: string, name: string, options?: WorkspaceToolsOptions): Tool {
  const tool = createWorkspaceTools(root, options).find((each) => each.name === name);
  if (tool === undefined) throw new Error(`createWorkspaceTools returned no tool named ${name}`);
  return tool;
}

/** Starts an ES module script in a fresh `node`; resolves its first stdout line and its exit. */
export function spawnNodeScript(script: string) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("\n")) resolve(stdout.slice(0, stdout.indexOf("\n")));
    });
    child.once("exit", () => reject(new Error(`child exited before printing a line: ${stdout}`)));
  });
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("exit", (code, signal) => resolve([code, signal])),
  );
  return { process: child, firstLine, exited };
}

/**
 * What write answers when a user who is not root writes `relative` in the workspace: the error
 * message, or "wrote". Root may write any file, so as root the child becomes nobody, with the
 * workspace opened up to it.
 */
export async function writeAsUser(root: string, relative: string, content: string): Promise<string> {
  const asRoot = process.getuid?.() === 0;
  // The tools are imported first, then the child becomes nobody: the code may sit where nobody can read.
  const script = `
    import { createWorkspaceTools } from ${JSON.stringify(packageEntry)};
    const [, write] = createWorkspaceTools(${JSON.stringify(root)});
    if (${asRoot}) { process.setgid(65534); process.setuid(65534); }
    const outcome = await write.execute({ path: ${JSON.stringify(relative)}, content: ${JSON.stringify(content)} }, {})
      .then(() => "wrote", (error) => error.message);
    console.log(outcome);`;
  if (asRoot) {
    await chmod(path.dirname(root), 0o755);
    await chmod(root, 0o777);
  }
  const run = await runNodeScript(script);
  if (run.code !== 0) throw new Error(`child node failed (${String(run.code)}): ${run.stderr}`);
  return run.stdout.trim();
}

/** A signal that reads as aborted from its `looks + 1`-th look on: where a loop checks it shows without timing. */
export function abortedAfterLooks(looks: number): AbortSignal {
  let seen = 0;
  return {
    get aborted() {
      seen += 1;
      return seen > looks;
    },
    addEventListener() {},
    removeEventListener() {},
  } as unknown as AbortSignal;
}
