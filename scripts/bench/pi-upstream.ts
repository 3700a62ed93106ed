// Upstream Pi's `openai-completions` provider, for comparison only: installed outside the repository
// (under the system temp folder) at bench time, never a dependency of the course.
import { existsSync } from "node:fs";
import { mkdir, readFile, rename } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runNpm } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";

export const PI_AI_PACKAGE = "@mariozechner/pi-ai";
export const PI_AI_VERSION = "0.73.1";
export const PI_AI_DIR = path.join(os.tmpdir(), `pi-course-bench-pi-ai-${PI_AI_VERSION}`);
export const PI_AI_INSTALL = `npm install --prefix ${PI_AI_DIR} --no-audit --no-fund ${PI_AI_PACKAGE}@${PI_AI_VERSION}`;

// The few shapes of Pi's API the bench touches.
export interface PiContext {
  systemPrompt: string;
  messages: { role: "user"; content: string; timestamp: number }[];
  tools: { name: string; description: string; parameters: object }[];
}
interface PiAssistant {
  stopReason: string;
  content: { type: string; text?: string; arguments?: Record<string, unknown> }[];
}
interface PiStream extends AsyncIterable<unknown> {
  result(): Promise<PiAssistant>;
}
type StreamOpenAICompletions = (model: object, context: PiContext, options: { apiKey: string }) => PiStream;

export type PiUpstream =
  | { installed: true; version: string; stream(baseURL: string, context: PiContext): PiStream }
  | { installed: false; reason: string };

const packageDir = path.join(PI_AI_DIR, "node_modules", ...PI_AI_PACKAGE.split("/"));

/** The reason npm gives, e.g. "notarget No matching version found for …", without its log-file line. */
function npmFailure(output: string, code: number | null): string {
  const lines = output.split("\n").map((line) => line.replace(/^npm error\s*/, "").trim());
  return (
    lines.find((line) => line !== "" && !/^(code |A complete log)/.test(line)) ?? `npm exited with ${String(code)}`
  );
}

/**
 * Installs into a scratch folder (removed afterwards, also on Ctrl-C) and moves the finished tree
 * into place in one rename, so an interrupted install never leaves a half-made copy to load.
 */
async function install(progress: (message: string) => void): Promise<string | undefined> {
  progress(`installing ${PI_AI_PACKAGE}@${PI_AI_VERSION} into ${PI_AI_DIR} (once)…`);
  return withTempDir("pi-bench-pi-ai-", async (scratch) => {
    const target = path.join(scratch, "install");
    await mkdir(target);
    const result = await runNpm(
      ["install", "--prefix", target, "--no-audit", "--no-fund", `${PI_AI_PACKAGE}@${PI_AI_VERSION}`],
      target,
    );
    if (result.code !== 0) return npmFailure(result.output, result.code);
    await rename(target, PI_AI_DIR);
    return undefined;
  });
}

/** Pi's model record for a custom OpenAI-compatible endpoint, every compat flag left to detection. */
function piModel(baseURL: string): object {
  return {
    id: "gpt-4o-mini",
    name: "bench",
    api: "openai-completions",
    provider: "bench",
    baseUrl: baseURL,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 16_384,
  };
}

/** Loads the installed copy, installing it first if it is missing (needs the npm registry). */
export async function loadPiUpstream(progress: (message: string) => void): Promise<PiUpstream> {
  if (!existsSync(packageDir)) {
    const failure = await install(progress).catch((error: Error) => error.message);
    if (failure !== undefined) return { installed: false, reason: failure };
  }
  const manifest = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8"));
  const entry = manifest.exports?.["./openai-completions"]?.import;
  if (typeof entry !== "string") return { installed: false, reason: "its package has no ./openai-completions export" };
  const module = (await import(pathToFileURL(path.join(packageDir, entry)).href)) as {
    streamOpenAICompletions: StreamOpenAICompletions;
  };
  return {
    installed: true,
    version: manifest.version,
    stream: (baseURL, context) => module.streamOpenAICompletions(piModel(baseURL), context, { apiKey: "sk-bench" }),
  };
}
