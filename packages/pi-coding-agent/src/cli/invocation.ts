// What one tiny-pi command line asks for, in one typed value: help, one of the commands that only
// read (sessions, tree, export, resources, mcp), or a run with its configuration (host/run-config.ts),
// whose practice directories, output mode and prompt. Parsed from the flags (args.ts) in this one
// place; the refusals that need the whole command line (a workspace that is not a folder, -p
// without a prompt, no prompt off a terminal) are here too, before anything is loaded.
import { UsageError } from "../host/errors.js";
import type { RunConfig } from "../host/run-config.js";
import { type CliArgs, DEFAULT_PROTECTED_PATHS, parseCliArgs } from "./args.js";
import type { OutputMode } from "./output-mode.js";
import { tinyPiHome } from "./tiny-pi-home.js";
import { requireWorkspace } from "./workspace.js";

export type Invocation =
  | { kind: "help" }
  | { kind: "sessions"; workspace: string }
  | { kind: "tree"; workspace: string; file: string }
  | { kind: "export"; workspace: string; file: string; out?: string }
  | { kind: "resources"; workspace: string; home: string; contextFiles: boolean }
  | { kind: "mcp"; workspace: string; home: string; trustMcp: boolean }
  | RunInvocation;

export interface RunInvocation {
  kind: "run";
  config: RunConfig;
  /** The practice directories of --from, or of --loop and --tools-from (learner-code.ts loads them). */
  learner: Pick<CliArgs, "fromDir" | "loopDir" | "toolsFromDir">;
  mode: OutputMode;
  /** The prompt words; absent: none was given (the REPL, or the embedded model's question). */
  prompt?: string;
  /** No prompt, a model named, on a terminal: the REPL. */
  interactive: boolean;
}

/** `from`: the folder relative paths are resolved against; `terminal`: stdin and stdout are a terminal. */
export function parseInvocation(argv: string[], from: string, env: NodeJS.ProcessEnv, terminal: boolean): Invocation {
  const args = parseCliArgs(argv, from);
  if (args === "help") return { kind: "help" };
  const { workspace, command } = args;
  requireWorkspace(workspace);
  const home = tinyPiHome(env);
  if (command?.kind === "resources") return { kind: "resources", workspace, home, contextFiles: !args.noContextFiles };
  if (command?.kind === "mcp") return { kind: "mcp", workspace, home, trustMcp: args.trustMcp === true };
  if (command !== undefined) return { ...command, workspace };
  return runInvocation(args, home, terminal);
}

function runInvocation(args: CliArgs, home: string, terminal: boolean): RunInvocation {
  const named = args.endpoint !== undefined || args.modelName !== undefined;
  if (args.mode === "print" && args.prompt === undefined && named) {
    throw new UsageError(
      '-p 只跑一轮、只打印最终回答：请把问题写在最后，例如 tiny-pi --base-url … --model … -p "这个项目叫什么？"。',
    );
  }
  // Chapter 19: --resume without a prompt off a terminal goes on with the task a crash left unfinished.
  const continuing = args.prompt === undefined && args.session.kind === "resume" && !terminal;
  const interactive = args.prompt === undefined && named && !continuing;
  if (interactive && !terminal) {
    throw new UsageError(
      '缺少 prompt：不在终端里时请把问题写在最后，例如 tiny-pi --base-url … --model … "请读取 README.md"。',
    );
  }
  const config: RunConfig = {
    workspace: args.workspace,
    home,
    models: {
      ...(args.endpoint !== undefined ? { endpoint: args.endpoint } : {}),
      ...(args.modelName !== undefined ? { modelName: args.modelName } : {}),
    },
    tools: args.tools,
    ...(args.maxSteps !== undefined ? { maxSteps: args.maxSteps } : {}),
    window: {
      ...(args.contextWindow !== undefined ? { contextWindow: args.contextWindow } : {}),
      ...(args.reserve !== undefined ? { reserve: args.reserve } : {}),
    },
    session: args.session,
    contextFiles: args.noContextFiles !== true,
    trustExtensions: args.trustExtensions === true,
    trustMcp: args.trustMcp === true,
    gate: { yes: args.yes === true, protectedPaths: args.protectedPaths ?? DEFAULT_PROTECTED_PATHS },
    ...(args.deferTools !== undefined ? { defer: args.deferTools } : {}),
  };
  return {
    kind: "run",
    config,
    learner: {
      ...(args.fromDir !== undefined ? { fromDir: args.fromDir } : {}),
      ...(args.loopDir !== undefined ? { loopDir: args.loopDir } : {}),
      ...(args.toolsFromDir !== undefined ? { toolsFromDir: args.toolsFromDir } : {}),
    },
    mode: args.mode,
    ...(args.prompt !== undefined ? { prompt: args.prompt } : {}),
    interactive,
  };
}
