#!/usr/bin/env node
import { EXIT_FAILED_RUN, EXIT_OK, EXIT_USAGE, RunError, UsageError } from "../host/errors.js";
// tiny-pi's entry: parses the command line and answers --help and usage errors before the model
// SDK, the validator and the tools are loaded (app.ts does the run). Every failure ends in one
// line and an exit code: 2 for usage, 1 for a failed run; never a stack.
import { helpText, parseCliArgs } from "./args.js";
import { leave } from "./leave.js";
import { requireWorkspace } from "./workspace.js";

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const from = env.INIT_CWD ?? process.cwd();
  const args = parseCliArgs(argv, from);
  if (args === "help") {
    process.stdout.write(`${helpText}\n`);
    return EXIT_OK;
  }
  requireWorkspace(args.workspace);
  if (args.command?.kind === "resources") {
    const { resourcesCommandText } = await import("./resources-command.js");
    process.stdout.write(`${resourcesCommandText(args, env)}\n`);
    return EXIT_OK;
  }
  if (args.command?.kind === "mcp") {
    const { mcpCommandText } = await import("./mcp-command.js");
    process.stdout.write(`${await mcpCommandText(args, env)}\n`);
    return EXIT_OK;
  }
  if (args.command?.kind === "export") {
    const { exportSession } = await import("./run-view/export-command.js");
    const { shownPath } = await import("./learner-tree.js");
    const { file, out } = args.command;
    process.stdout.write(`${exportSession(file, out, (shown) => shownPath(shown, from))}\n`);
    return EXIT_OK;
  }
  if (args.command !== undefined) {
    const { sessionCommandText } = await import("./session-view.js");
    const { shownPath } = await import("./learner-tree.js");
    process.stdout.write(`${sessionCommandText(args.command, args.workspace, (file) => shownPath(file, from))}\n`);
    return EXIT_OK;
  }
  if (
    args.mode === "print" &&
    args.prompt === undefined &&
    (args.endpoint !== undefined || args.modelName !== undefined)
  ) {
    throw new UsageError(
      '-p 只跑一轮、只打印最终回答：请把问题写在最后，例如 tiny-pi --base-url … --model … -p "这个项目叫什么？"。',
    );
  }
  const interactive = args.prompt === undefined && (args.endpoint !== undefined || args.modelName !== undefined);
  if (interactive && !(process.stdin.isTTY && process.stdout.isTTY)) {
    throw new UsageError(
      '缺少 prompt：不在终端里时请把问题写在最后，例如 tiny-pi --base-url … --model … "请读取 README.md"。',
    );
  }
  const { runTinyPi } = await import("./app.js");
  return runTinyPi(args, from, interactive);
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
