// Lab 8.5 · bash：run a command in its own process group, without the provider's credentials,
// stream its merged output, stop the whole group on timeout or abort (armed until the call
// returns), and return when the shell exits.
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
  if (signal?.aborted) throw new Error("Command aborted before it started.");
  const { shell, args } = shellInvocation(command);
  const child = spawn(shell, args, {
    cwd,
    // Without the model provider's credentials: one `env` would send them to the model and the session.
    env: shellEnvironment(process.env),
    detached: ownProcessGroup,
    stdio: ["ignore", "pipe", "pipe"],
    windowsHide: true,
  });
  const capture = new OutputCapture(limits);
  const pipes = [child.stdout, child.stderr];
  streamOutput(pipes, capture, reportProgress);

  let stoppedBecause: string | undefined;
  let stopped!: () => void;
  const stopping = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const stop = (reason: string) => {
    if (stoppedBecause !== undefined || child.pid === undefined) return;
    stoppedBecause = reason;
    signalProcessGroup(child.pid, "SIGTERM");
    // Descendants that ignore SIGTERM get SIGKILL, even after the shell itself has gone.
    setTimeout(() => signalProcessGroup(child.pid as number, "SIGKILL"), KILL_GRACE_MS);
    stopped();
  };
  const timer = setTimeout(
    () => stop(`Command timed out after ${timeoutSeconds} seconds; pass a larger timeout or run it in the background.`),
    Math.min(timeoutSeconds * 1000, MAX_TIMER_MS),
  );
  const onAbort = () => stop("Command aborted.");
  signal?.addEventListener("abort", onAbort, { once: true });

  let exitCode: number;
  let output: CapturedOutput;
  try {
    exitCode = await shellExit(child);
    // Timeout and abort stay armed until the call returns: a background child may keep writing.
    await pipesQuiet(pipes, stopping);
    output = await capture.finish();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }

  const details = {
    exitCode,
    ...(output.truncation && { truncation: output.truncation, fullOutputPath: output.fullOutputPath }),
  };
  if (stoppedBecause !== undefined) throw new Error(joinOutput(output.text, stoppedBecause));
  if (exitCode !== 0) throw new Error(joinOutput(output.text, `Command exited with code ${exitCode}.`));
  return { content: [text(output.text === "" ? "(no output)" : output.text)], details };
}

/** stdout and stderr into one capture, in arrival order, each chunk reported as it comes. */
function streamOutput(
  pipes: Readable[],
  capture: OutputCapture,
  reportProgress: ToolExecutionContext["reportProgress"],
) {
  for (const pipe of pipes) {
    const decoder = new StringDecoder("utf8"); // one per pipe: a chunk may end inside a character
    pipe.on("data", (chunk: Buffer) => {
      if (reportProgress !== undefined) {
        const delta = decoder.write(chunk);
        if (delta !== "") reportProgress([text(delta)]);
      }
      if (!capture.write(chunk)) {
        // The temp file is behind: stop reading until it catches up, so memory stays bounded.
        for (const each of pipes) each.pause();
        void capture.drained().then(() => {
          for (const each of pipes) each.resume();
        });
      }
    });
  }
}

/** Resolves with the shell's exit code (128 + n for signal n) when the shell exits, not when its pipes close. */
function shellExit(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once("error", (error) => reject(new Error(`Could not start the shell: ${error.message}`)));
    child.once("exit", (code, signalName) => {
      resolve(signalName === null ? (code ?? 1) : 128 + (constants.signals[signalName] ?? 0));
    });
  });
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
