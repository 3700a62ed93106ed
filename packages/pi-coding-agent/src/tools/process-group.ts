// Given (not a lab): which shell runs a command, with what environment, and how a whole process
// group is signalled.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const isWindows = process.platform === "win32";

/** On POSIX the shell leads its own process group, so everything it starts can be signalled at once. */
export const ownProcessGroup = !isWindows;

/** `bash -c command`, or `sh -c` when bash is missing (cmd.exe on Windows without Git Bash). */
export function shellInvocation(command: string): { shell: string; args: string[] } {
  const bash = findOnPath(isWindows ? "bash.exe" : "bash");
  if (bash !== undefined) return { shell: bash, args: ["-c", command] };
  if (isWindows) return { shell: process.env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", command] };
  return { shell: "/bin/sh", args: ["-c", command] };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Signals the group led by `pid`; a group that has already gone is not an error. */
export function signalProcessGroup(pid: number, signal: "SIGTERM" | "SIGKILL"): void {
  if (isWindows) {
    // Windows has no process groups or SIGTERM: taskkill /T ends the whole tree.
    spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

/** Names of variables that hold a model provider's credentials: tiny-pi's OPENAI_API_KEY and every *_API_KEY. */
const CREDENTIAL = /(^|_)API_KEY$/i;

/** The environment a command gets: the agent's own, without the model provider's credentials. */
export function shellEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !CREDENTIAL.test(name)));
}
