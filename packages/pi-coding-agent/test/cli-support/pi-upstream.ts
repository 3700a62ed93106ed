// Upstream Pi 0.73.1 (the root devDependency @mariozechner/pi-coding-agent) as a real child process
// for the interop tests: its agent folder (a models.json naming one OpenAI-compatible provider on
// 127.0.0.1), RPC mode driven over stdin/stdout, and its interactive mode on a pseudo-terminal.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type CliResult, finished, repoRoot } from "./run-cli.js";

export const PI_PACKAGE = path.join(repoRoot, "node_modules", "@mariozechner", "pi-coding-agent");
export const PI_CLI = path.join(PI_PACKAGE, "dist", "cli.js");

/** Why Pi cannot run here, or undefined when it can. */
export function piUnavailable(): string | undefined {
  return existsSync(PI_CLI)
    ? undefined
    : "没有安装上游 Pi（根目录的 devDependency @mariozechner/pi-coding-agent）：运行 npm ci";
}

/** The provider and model names both agents use: tiny-pi's assistant entries carry the same names. */
export const PROVIDER = "openai-compatible";
export const MODEL = "local-model";

/**
 * Pi's environment in `home`: HOME and its agent folder there, no network at start (--offline is
 * also passed), and a models.json whose one provider is the test's server at `baseURL`.
 */
export async function piEnvironment(home: string, baseURL: string): Promise<NodeJS.ProcessEnv> {
  const agentDir = path.join(home, ".pi", "agent");
  await mkdir(agentDir, { recursive: true });
  const models = {
    providers: {
      [PROVIDER]: {
        baseUrl: baseURL,
        api: "openai-completions",
        apiKey: "none",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: MODEL, input: ["text", "image"], contextWindow: 32768, maxTokens: 4096 }],
      },
    },
  };
  await writeFile(path.join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  await writeFile(
    path.join(agentDir, "settings.json"),
    JSON.stringify({ defaultProvider: PROVIDER, defaultModel: MODEL, enableInstallTelemetry: false }),
  );
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/_API_KEY$/i.test(key) || key.startsWith("PI_") || key === "NODE_TEST_CONTEXT") continue;
    env[key] = value;
  }
  return { ...env, HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_TELEMETRY: "0" };
}

/** The arguments every Pi run starts with. */
export const PI_ARGS = ["--offline", "--provider", PROVIDER, "--model", MODEL, "--no-context-files", "--no-skills"];

export interface PiRpc {
  /** Sends `command` and resolves with its response (rejects on success: false). */
  send(command: Record<string, unknown>): Promise<{ data?: unknown }>;
  /** Resolves with the next event of `type` arriving after this call. */
  next(type: string): Promise<Record<string, unknown>>;
  /** Everything Pi wrote to stderr. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Pi in RPC mode. Records are split on "\n" only, as Pi's protocol asks. */
export function startPiRpc(args: string[], cwd: string, env: NodeJS.ProcessEnv): PiRpc {
  const child: ChildProcess = spawn(process.execPath, [PI_CLI, "--mode", "rpc", ...PI_ARGS, ...args], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let buffer = "";
  let stderr = "";
  let nextId = 1;
  const pending = new Map<string, { resolve: (value: { data?: unknown }) => void; reject: (error: Error) => void }>();
  const waiting: { type: string; resolve: (event: Record<string, unknown>) => void }[] = [];
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  void exited.then(() => {
    for (const { reject } of pending.values()) reject(new Error(`Pi exited; stderr:\n${stderr}`));
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    buffer += text;
    for (let at = buffer.indexOf("\n"); at !== -1; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at).replace(/\r$/, "");
      buffer = buffer.slice(at + 1);
      if (line.trim() === "") continue;
      const record = JSON.parse(line) as Record<string, unknown>;
      if (record.type === "response" && typeof record.id === "string" && pending.has(record.id)) {
        const waiter = pending.get(record.id);
        pending.delete(record.id);
        if (record.success === false)
          waiter?.reject(new Error(`Pi ${String(record.command)}: ${String(record.error)}`));
        else waiter?.resolve(record as { data?: unknown });
        continue;
      }
      const index = waiting.findIndex((waiter) => waiter.type === record.type);
      if (index !== -1) waiting.splice(index, 1)[0]?.resolve(record);
    }
  });
  return {
    send(command) {
      const id = `t${nextId++}`;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.stdin?.write(`${JSON.stringify({ ...command, id })}\n`);
      });
    },
    next(type) {
      return new Promise((resolve) => waiting.push({ type, resolve }));
    },
    stderr: () => stderr,
    async stop() {
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Pi run once to its end (print mode, --export…) with PI_ARGS first: exit code, stdout and stderr. */
export function runPi(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runPiWith([...PI_ARGS, ...args], cwd, env);
}

/** Pi run once to its end with exactly `args` (no provider or model flags: settings and the session decide). */
export function runPiWith(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return finished(spawn(process.execPath, [PI_CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] }));
}
