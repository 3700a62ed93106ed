// tiny-pi on a pseudo-terminal, through util-linux `script`, so that stdin and stdout are TTYs
// as in a learner's terminal: what is typed goes in as keystrokes, the screen comes out as text.
import { spawn, spawnSync } from "node:child_process";
import { cliPath } from "./run-cli.js";

/** Why the pseudo-terminal tests cannot run here, or undefined when they can. */
export function ptyUnavailable(): string | undefined {
  if (process.platform !== "linux") return "需要 Linux 上 util-linux 的 script 命令来提供伪终端";
  const probe = spawnSync("script", ["-qefc", "true", "/dev/null"], { stdio: "ignore" });
  return probe.status === 0 ? undefined : "没有 util-linux 的 script 命令，无法提供伪终端";
}

export interface PtySession {
  /** Everything the terminal showed so far, colour codes included. */
  screen(): string;
  /** Types `keys` (a line ends with "\r", Ctrl-C is "\u0003"). */
  type(keys: string): void;
  /** Resolves once the screen shows `text` after what was last waited for; rejects if the program exits first. */
  waitFor(text: string): Promise<void>;
  /** Types `line` at the prompt, waits for `answer` and the next prompt. */
  ask(line: string, answer: string): Promise<void>;
  /** Types /exit and resolves with the exit code. */
  leave(): Promise<number | null>;
  exited: Promise<number | null>;
  /** Ends the terminal session if it is still running (the program gets SIGHUP, as when a window closes). */
  stop(): Promise<void>;
}

/** The REPL's prompt. */
export const PROMPT = "› ";

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

export function startOnPty(args: string[], cwd: string, env: NodeJS.ProcessEnv): PtySession {
  const command = [process.execPath, cliPath, ...args].map(quote).join(" ");
  const child = spawn("script", ["-qefc", command, "/dev/null"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  let cursor = 0;
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    screen += text;
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    screen += text;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const session: PtySession = {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    screen: () => screen,
    type: (keys) => child.stdin.write(keys),
    exited,
    waitFor(text) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const at = screen.indexOf(text, cursor);
          if (at === -1) return;
          waiters.delete(check);
          cursor = at + text.length;
          resolve();
        };
        waiters.add(check);
        check();
        void exited.then(() => {
          if (waiters.delete(check)) reject(new Error(`program exited before showing "${text}"; screen:\n${screen}`));
        });
      });
    },
    async ask(line, answer) {
      session.type(`${line}\r`);
      await session.waitFor(answer);
      await session.waitFor(PROMPT);
    },
    leave() {
      session.type("/exit\r");
      return exited;
    },
  };
  return session;
}
