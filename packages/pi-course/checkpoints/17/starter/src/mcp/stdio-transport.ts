// Checkpoint 17 · 学习脚手架：stdio 传输。启动子进程、读 stdout 与 stderr、send()、close() 的其余部分已经写好；
// Lab 17.5 ① 是 close() 里的升级。Lab 17.5 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.5` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="子进程与命名" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// MCP over stdio: the server is a real child process; one JSON message per line on its stdin and
// stdout, its stderr is its log. It leads its own process group, so closing it ends everything it
// started (servers run through `npx` or a shell are a wrapper and a second process). Close is:
// stdin closed → wait → SIGTERM to the group → wait → SIGKILL to the group.
import { type ChildProcess, spawn } from "node:child_process";
import { ownProcessGroup } from "../process/process-tree.js";
import { signalProcessGroup } from "../tools/process-group.js";
import { DEFAULT_MAX_LINE_BYTES, NdjsonReader } from "./ndjson-reader.js";
import type { Transport, TransportEvents } from "./transport.js";

export interface StdioServerOptions {
  command: string;
  args?: string[];
  /** The server's whole environment (nothing is inherited beyond it). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Each line the server writes on stderr. */
  onLog?: (line: string) => void;
  /** After stdin is closed, how long the server may take to exit before SIGTERM (200 ms). */
  stdinGraceMs?: number;
  /** After SIGTERM, how long before SIGKILL (1,000 ms). */
  termGraceMs?: number;
  maxLineBytes?: number;
}

const STDERR_TAIL_LINES = 20;

export class StdioTransport implements Transport {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private readonly stderrTail: string[] = [];
  private stderrPartial = "";

  constructor(private readonly options: StdioServerOptions) {}

  /** The server's pid while it runs (tests check that it is gone after close). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last line the server wrote on stderr (what a failed start reports). */
  get lastLogLine(): string | undefined {
    const partial = this.stderrPartial.trim();
    return partial !== "" ? partial : this.stderrTail.at(-1);
  }

  start(events: TransportEvents): Promise<void> {
    const child = spawn(this.options.command, this.options.args ?? [], {
      cwd: this.options.cwd,
      env: this.options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: ownProcessGroup,
      windowsHide: true,
    });
    this.child = child;
    let ended = false;
    const end = (reason: string) => {
      if (ended) return;
      ended = true;
      // The leader is gone; a child it left behind in its group must not outlive it.
      if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
      events.close(reason);
    };
    this.exited = new Promise<void>((resolve) => {
      child.on("error", (error: NodeJS.ErrnoException) => {
        end(error.code === "ENOENT" ? `command not found: ${this.options.command}` : error.message);
        resolve();
      });
      child.on("exit", (code, signal) => {
        const how = signal !== null ? `signal ${signal}` : `code ${code}`;
        const log = this.lastLogLine;
        end(`server exited (${how})${log === undefined ? "" : `; last stderr line: ${log}`}`);
        resolve();
      });
    });
    const reader = new NdjsonReader(
      {
        value: (value) => events.message(value),
        garbage: (error) => events.error(error),
        overflow: (error) => {
          events.error(error);
          end(error.message);
          void this.close();
        },
      },
      this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        // A message this client cannot handle (a bug, not the server's fault) ends the connection
        // with one line, rejecting what is in flight, instead of crashing the host with a stack.
        end(`MCP client failed on a message: ${(error as Error).message}`);
        void this.close();
      }
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => this.log(chunk));
    // A server that exits first makes writes fail with EPIPE: the exit event reports it.
    child.stdin?.on("error", () => {});
    return new Promise((resolve) => {
      child.once("spawn", () => resolve());
      child.once("error", () => resolve());
    });
  }

  send(message: object): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new Error("MCP server's stdin is closed"));
    }
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (child === undefined || exited === undefined || child.pid === undefined) return;
    const pid = child.pid;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      if (!(await within(exited, this.options.stdinGraceMs ?? 200))) await this.escalate(pid, exited);
    }
    await exited;
    // Whatever the leader left in its group goes with it.
    signalProcessGroup(pid, "SIGKILL");
    child.stdout?.destroy();
    child.stderr?.destroy();
  }

  /** The server ignored stdin's end: SIGTERM to its whole group, and SIGKILL if it outlives the grace too. */
  private async escalate(pid: number, exited: Promise<void>): Promise<void> {
    // Lab 17.5 ①：服务器在 stdin 关闭以后的等待里没有退出（close() 已经等过 stdinGraceMs）：
    //   signalProcessGroup(pid, "SIGTERM")：发给整个进程组（npx、shell 包着的服务器是两个进程）；
    //   再等 this.options.termGraceMs ?? 1_000 毫秒（within(exited, …)），还没退出 → signalProcessGroup(pid, "SIGKILL")。
    throw new Error("Lab 17.5 子进程与命名 尚未实现");
  }

  private log(chunk: string): void {
    const lines = (this.stderrPartial + chunk).split(/\r?\n/);
    this.stderrPartial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      this.options.onLog?.(line);
    }
    if (this.stderrPartial.length > 64 * 1024) this.stderrPartial = this.stderrPartial.slice(-4096);
  }
}

/** Whether `promise` settles within `ms` milliseconds. */
function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
