#!/usr/bin/env node
import { EXIT_FAILED_RUN, EXIT_OK, EXIT_USAGE, RunError, UsageError } from "../host/errors.js";
// tiny-pi's entry: parses the command line into one Invocation and answers --help, usage errors
// and the commands that only read before the model SDK, the validator and the tools are loaded
// (app.ts does a run). Every failure ends in one line and an exit code: 2 for usage, 1 for a
// failed run; never a stack.
import { helpText } from "./args.js";
import { type Invocation, parseInvocation } from "./invocation.js";
import { leave } from "./leave.js";

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const from = env.INIT_CWD ?? process.cwd();
  const invocation = parseInvocation(argv, from, env, process.stdin.isTTY === true && process.stdout.isTTY === true);
  if (invocation.kind === "help") {
    process.stdout.write(`${helpText}\n`);
    return EXIT_OK;
  }
  if (invocation.kind === "run") {
    const { runTinyPi } = await import("./app.js");
    return runTinyPi(invocation, from);
  }
  process.stdout.write(`${await commandText(invocation, from, env)}\n`);
  return EXIT_OK;
}

/** What a command that only reads (export writes its page) prints. */
async function commandText(
  command: Exclude<Invocation, { kind: "help" | "run" }>,
  from: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  if (command.kind === "resources") return (await import("./resources-command.js")).resourcesCommandText(command);
  if (command.kind === "mcp") return (await import("./mcp-command.js")).mcpCommandText(command, env);
  const { shownPath } = await import("./learner-tree.js");
  const shown = (file: string) => shownPath(file, from);
  if (command.kind === "export") {
    const { exportSession } = await import("./run-view/export-command.js");
    return exportSession(command.file, command.out, shown);
  }
  const { sessionCommandText } = await import("./session-view.js");
  return sessionCommandText(command, command.workspace, shown);
}

/** Exit code by kind of failure; anything unexpected is still one line, never a stack. */
function codeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT_USAGE;
  return EXIT_FAILED_RUN;
}

main(process.argv.slice(2), process.env).then(
  (code) => leave(code),
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof RunError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${known ? message : `tiny-pi 出错：${message.split("\n")[0]}`}\n`);
    leave(codeOf(error));
  },
);
