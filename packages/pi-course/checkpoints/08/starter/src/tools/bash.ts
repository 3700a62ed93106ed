// Checkpoint 08 · 学习脚手架：createBashTool() 的参数 schema、shellInvocation()/shellEnvironment()/signalProcessGroup()、
// OutputCapture 与 pipesQuiet() 已经写好；Lab 8.5 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ⑥ 完成 `// Lab 8.5` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="进程组命令" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { type Tool, type ToolExecutionContext, type ToolOutput, text } from "@pi/core";
import { type CapturedOutput, OutputCapture } from "./output-capture.js";
import { ownProcessGroup, shellEnvironment, shellInvocation, signalProcessGroup } from "./process-group.js";
import type { OutputLimits } from "./truncate.js";
import { resolveWorkspacePath } from "./workspace-path.js";

/** How long a group has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 500;
/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After the shell exits, output still in the pipes is read until they are quiet this long, */
const PIPE_QUIET_MS = 100;
/** but no longer than this: a chatty background child does not hold the call. */
const PIPE_DRAIN_MAX_MS = 1000;

interface BashArgs {
  command: string;
  timeout?: number;
}

export interface BashOptions {
  timeoutSeconds: number;
  limits: OutputLimits;
}

export function createBashTool(root: string, options: BashOptions): Tool {
  return {
    name: "bash",
    description: `Run a shell command in the workspace (bash -c). stdin is closed; stdout and stderr are merged. Default timeout ${options.timeoutSeconds} s.`,
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The command line to run." },
        timeout: { type: "number", exclusiveMinimum: 0, description: "Timeout in seconds." },
      },
      required: ["command"],
      additionalProperties: false,
    },
    async execute(args, context) {
      const { command, timeout = options.timeoutSeconds } = args as unknown as BashArgs;
      // The command runs in the workspace's real folder; a missing workspace is a one-line error.
      const cwd = await resolveWorkspacePath(root, ".");
      return runCommand(cwd, command, timeout, options.limits, context);
    },
  };
}

async function runCommand(
  cwd: string,
  command: string,
  timeoutSeconds: number,
  limits: OutputLimits,
  { signal, reportProgress }: ToolExecutionContext,
): Promise<ToolOutput> {
  // Lab 8.5 ①：signal 已经取消时不启动命令，抛出 "Command aborted before it started."。
  //   用 shellInvocation(command) 选出 shell（bash -c，没有 bash 时 sh -c），spawn 时：cwd 为 workspace 的真实路径，
  //   env: shellEnvironment(process.env)（去掉模型服务的密钥：OPENAI_API_KEY 与 *_API_KEY，否则一条 env 就把它发给模型、写进会话），
  //   detached: ownProcessGroup（自己领导一个进程组），stdio: ["ignore", "pipe", "pipe"]（stdin 关闭），windowsHide: true。
  // Lab 8.5 ②：new OutputCapture(limits)，用 streamOutput() 把 stdout 与 stderr 合并进去。
  // Lab 8.5 ③：stop(reason) 只生效一次：记下 reason，signalProcessGroup(pid, "SIGTERM")，再用 setTimeout 在
  //   KILL_GRACE_MS 后 signalProcessGroup(pid, "SIGKILL")（忽略 SIGTERM 的后代也会结束），最后 resolve 一个 stopping Promise
  //   （pipesQuiet() 看到它就不再等管道）。这个 SIGKILL 计时器不要清掉：shell 收到 SIGTERM 就退出了，忽略 SIGTERM 的后代
  //   却还活着，只有它能结束它们。超时计时器（Math.min(timeoutSeconds * 1000, MAX_TIMER_MS)）以
  //   `Command timed out after ${timeoutSeconds} seconds; pass a larger timeout or run it in the background.` 调用
  //   stop；signal 的 abort 以 "Command aborted." 调用 stop。
  // Lab 8.5 ④：try 里依次 await shellExit(child)（等 shell 退出，不等管道关闭）、await pipesQuiet(pipes, stopping)
  //   （读完管道里剩下的输出，有界）、await capture.finish()；finally 里才清掉超时计时器（clearTimeout）和 abort 监听：
  //   后台子进程还在写的时候，超时与取消仍然有效。忘了 clearTimeout，进程要等满超时才能退出。
  //   （只清这两个：③ 的 SIGKILL 计时器照常触发。）
  // Lab 8.5 ⑥：stop 过：抛出 joinOutput(output.text, reason)；退出码非 0：抛出
  //   joinOutput(output.text, `Command exited with code ${exitCode}.`)；否则返回输出（空输出写 "(no output)"），
  //   details 为 { exitCode }，截断时再加 truncation 与 fullOutputPath。
  throw new Error("Lab 8.5 在进程组里运行命令 尚未实现");
}

/** stdout and stderr into one capture, in arrival order, each chunk reported as it comes. */
function streamOutput(
  pipes: Readable[],
  capture: OutputCapture,
  reportProgress: ToolExecutionContext["reportProgress"],
) {
  // Lab 8.5 ②：两个管道都监听 "data"：每个管道一个 StringDecoder（一个 chunk 可能停在字符中间），
  //   有 reportProgress 时把解码出的文字立刻报告出去；chunk 交给 capture.write()。它返回 false 时临时文件
  //   跟不上：暂停两个管道，等 capture.drained() 之后再 resume()，内存因此有界。
  throw new Error("Lab 8.5 在进程组里运行命令 尚未实现");
}

/** Resolves with the shell's exit code (128 + n for signal n) when the shell exits, not when its pipes close. */
function shellExit(child: ReturnType<typeof spawn>): Promise<number> {
  // Lab 8.5 ⑤：返回一个 Promise：child 的 "error" 事件 reject 一行错误（`Could not start the shell: …`）；
  //   "exit" 事件（不是 "close"：后台进程可能一直占着管道）resolve 退出码。被信号 n 结束时退出码是
  //   128 + n（n 来自 os.constants.signals[signalName]）。
  throw new Error("Lab 8.5 在进程组里运行命令 尚未实现");
}

/**
 * Reads what is left in the pipes until they are quiet for PIPE_QUIET_MS, for at most
 * PIPE_DRAIN_MAX_MS, or until the command is stopped, then lets go: a background process that
 * inherited them may keep them open, and busy, forever.
 */
function pipesQuiet(pipes: Readable[], stopping: Promise<void>): Promise<void> {
  const open = pipes.filter((pipe) => !pipe.readableEnded && !pipe.destroyed);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let closed = 0;
    let quiet: NodeJS.Timeout | undefined;
    const longest = setTimeout(() => done(), PIPE_DRAIN_MAX_MS);
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(longest);
      for (const pipe of pipes) pipe.destroy();
      resolve();
    };
    void stopping.then(done);
    const rearm = () => {
      clearTimeout(quiet);
      // setImmediate after the timer: one more poll for data that is already waiting in a pipe.
      quiet = setTimeout(() => setImmediate(() => (quietSince() ? done() : rearm())), PIPE_QUIET_MS);
    };
    let lastData = performance.now();
    const quietSince = () => performance.now() - lastData >= PIPE_QUIET_MS && !open.some((pipe) => pipe.isPaused());
    for (const pipe of open) {
      pipe.on("data", () => {
        lastData = performance.now();
      });
      pipe.once("close", () => {
        closed += 1;
        if (closed === open.length) done();
      });
    }
    rearm();
  });
}

function joinOutput(output: string, status: string): string {
  return output === "" ? status : `${output}\n\n${status}`;
}
