// Runs the learner's commands (npm, node --test) as child processes with an environment that
// does not leak the outer run: no npm_* / INIT_CWD variables from an enclosing `npm test`, no
// NODE_TEST_CONTEXT (which would turn a nested `node --test` into a silent child reporter) and
// no node_modules/.bin folders npm put on PATH (which would hide a missing link in a tree).
import { spawn } from "node:child_process";
import path from "node:path";

export interface ProcessResult {
  /** Exit code; null when the process was killed by a signal. */
  code: number | null;
  /** stdout and stderr, interleaved in arrival order. */
  output: string;
}

/** The environment for a child that should behave as if a learner typed the command in a fresh shell. */
export function cleanEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    const upper = key.toUpperCase();
    if (upper.startsWith("NPM_") || upper === "INIT_CWD" || upper === "NODE_TEST_CONTEXT") continue;
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
export function runProcess(
  command: string,
  args: string[],
  cwd: string,
  options: { shell?: boolean; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: cleanEnv(),
      shell: options.shell ?? false,
      windowsHide: true,
      timeout: options.timeoutMs,
      killSignal: "SIGKILL",
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The npm that runs this process (npm_execpath under npm), else `npm` from PATH. */
const npmCli = process.env.npm_execpath;

/** Runs `npm <args>` in `cwd` with a clean environment. */
export function runNpm(args: string[], cwd: string): Promise<ProcessResult> {
  if (npmCli !== undefined && /\.[cm]?js$/.test(npmCli)) return runProcess(process.execPath, [npmCli, ...args], cwd);
  return runProcess("npm", args, cwd, { shell: process.platform === "win32" });
}

/** Runs `node <args>` with the node that runs this process; killed after `timeoutMs` when given. */
export function runNode(args: string[], cwd: string, timeoutMs?: number): Promise<ProcessResult> {
  return runProcess(process.execPath, args, cwd, { timeoutMs });
}
