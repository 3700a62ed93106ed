// Runs the learner's commands (npm, node --test) as child processes with an environment that
// does not leak the outer run: no npm_* / INIT_CWD variables from an enclosing `npm test`, no
// NODE_TEST_CONTEXT (which would turn a nested `node --test` into a silent child reporter) and
// no node_modules/.bin folders npm put on PATH (which would hide a missing link in a tree).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { startWatchdog } from "../../../packages/pi-coding-agent/src/process/parent-watchdog.js";
import { killTree, ownProcessGroup } from "../../../packages/pi-coding-agent/src/process/process-tree.js";
import { cleanupOnSignal } from "../cleanup-on-signal.js";
import { guardUntilClosed } from "./process-tree.js";

export interface ProcessResult {
  /** Exit code; null when the process was killed by a signal or stopped at its time limit. */
  code: number | null;
  /** stdout and stderr, interleaved in arrival order. */
  output: string;
}

/** The environment for a child that should behave as if a learner typed the command in a fresh shell. */
function cleanEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    const upper = key.toUpperCase();
    if (
      upper.startsWith("NPM_") ||
      upper === "INIT_CWD" ||
      upper === "NODE_TEST_CONTEXT" ||
      upper === "PI_COURSE_SUITE"
    )
      continue;
    if (upper === "PATH" && value !== undefined) {
      env[key] = value
        .split(path.delimiter)
        .filter((entry) => !isNodeModulesBin(entry))
        .join(path.delimiter);
      continue;
    }
    env[key] = value;
  }
  return env;
}

function isNodeModulesBin(entry: string): boolean {
  const normalized = path.normalize(entry).replace(/[\\/]+$/, "");
  return path.basename(normalized) === ".bin" && path.basename(path.dirname(normalized)) === "node_modules";
}

/** Runs `command args` in `cwd` and collects its output; never rejects for a non-zero exit. */
function runProcess(
  command: string,
  args: string[],
  cwd: string,
  options: { shell?: boolean; timeoutMs?: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const { timeoutMs, signal } = options;
    const watchdog = timeoutMs === undefined ? undefined : startWatchdog();
    const child = spawn(command, args, {
      cwd,
      env: { ...cleanEnv(), ...watchdog?.env, ...options.env },
      shell: options.shell ?? false,
      windowsHide: true,
      detached: timeoutMs !== undefined && ownProcessGroup,
    });
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killTree(child);
          }, timeoutMs);
    if (timeoutMs !== undefined) {
      guardUntilClosed(child);
      watchdog?.guard(child);
    }
    // An unguarded child (npm) shares this process group, so Ctrl-C reaches it too; a signal sent
    // to this process alone must still stop it (npm passes SIGTERM on to the script it runs).
    const release = timeoutMs === undefined ? cleanupOnSignal(() => child.kill("SIGTERM")) : () => undefined;
    // A cancelled run (verify --watch after a new save) is stopped as a whole tree, like a timed-out one.
    const cancel = () => {
      timedOut = true;
      killTree(child);
    };
    signal?.addEventListener("abort", cancel, { once: true });
    if (signal?.aborted === true) cancel();
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      release();
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
      resolve({ code: timedOut ? null : code, output });
    });
  });
}

export interface NpmInvocation {
  command: string;
  args: string[];
  shell: boolean;
}

/**
 * How to start `npm <args>` without depending on a shell where possible: the npm that runs this
 * process (npm_execpath) or, on Windows, the npm-cli.js installed beside node.exe, both run by
 * this node; else `npm` from PATH, which on Windows is npm.cmd and needs cmd.exe, so the whole
 * command line is quoted for it.
 */
export function npmInvocation(
  args: string[],
  context: { platform: NodeJS.Platform; npmExecpath?: string; execPath: string; exists: (file: string) => boolean },
): NpmInvocation {
  const { platform, npmExecpath, execPath } = context;
  if (npmExecpath !== undefined && /\.[cm]?js$/.test(npmExecpath)) {
    return { command: execPath, args: [npmExecpath, ...args], shell: false };
  }
  if (platform !== "win32") return { command: "npm", args, shell: false };
  const besideNode = path.win32.join(path.win32.dirname(execPath), "node_modules", "npm", "bin", "npm-cli.js");
  if (context.exists(besideNode)) return { command: execPath, args: [besideNode, ...args], shell: false };
  return { command: ["npm", ...args.map(quoteForCmd)].join(" "), args: [], shell: true };
}

// The characters cmd.exe treats specially (the double quote among them); `^` escapes each.
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/**
 * One argument for a cmd.exe command line that starts a .cmd file (npm.cmd): quoted for the
 * program's own argument parsing (backslashes before a quote doubled, the quote escaped), then
 * every special character escaped with `^` twice: once for cmd.exe, once more for the batch file
 * that re-reads its arguments. Spaces stay inside one argument.
 */
export function quoteForCmd(arg: string): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1")}"`;
  return quoted.replace(CMD_META, "^$1").replace(CMD_META, "^$1");
}

/** How this process would start npm: its platform, the npm that runs it, its node. */
export function npmContext() {
  return {
    platform: process.platform,
    npmExecpath: process.env.npm_execpath,
    execPath: process.execPath,
    exists: existsSync,
  };
}

/** Runs `npm <args>` in `cwd` with a clean environment. */
export function runNpm(args: string[], cwd: string): Promise<ProcessResult> {
  const npm = npmInvocation(args, npmContext());
  return runProcess(npm.command, npm.args, cwd, { shell: npm.shell });
}

/**
 * Runs `node <args>` with the node that runs this process, with `env` over the clean environment;
 * killed after `timeoutMs`, or when `signal` aborts.
 */
export function runNode(
  args: string[],
  cwd: string,
  timeoutMs?: number,
  signal?: AbortSignal,
  env?: NodeJS.ProcessEnv,
): Promise<ProcessResult> {
  return runProcess(process.execPath, args, cwd, { timeoutMs, signal, env });
}
