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
export const PI_AI_DIR = installDir(PI_AI_PACKAGE, PI_AI_VERSION);
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

/** The reason npm gives, e.g. "notarget No matching version found for …", without its log-file line. */
function npmFailure(output: string, code: number | null): string {
  const lines = output.split("\n").map((line) => line.replace(/^npm error\s*/, "").trim());
  return (
    lines.find((line) => line !== "" && !/^(code |A complete log)/.test(line)) ?? `npm exited with ${String(code)}`
  );
}

/** Where the bench keeps an upstream package: under the system temp folder, one folder per version. */
function installDir(name: string, version: string): string {
  return path.join(os.tmpdir(), `pi-course-bench-${name.split("/").at(-1)}-${version}`);
}

/**
 * Installs into a scratch folder (removed afterwards, also on Ctrl-C) and moves the finished tree
 * into place in one rename, so an interrupted install never leaves a half-made copy to load.
 */
async function install(
  name: string,
  version: string,
  dir: string,
  progress: (message: string) => void,
): Promise<string | undefined> {
  progress(`installing ${name}@${version} into ${dir} (once)…`);
  return withTempDir("pi-bench-upstream-", async (scratch) => {
    const target = path.join(scratch, "install");
    await mkdir(target);
    const result = await runNpm(
      ["install", "--prefix", target, "--no-audit", "--no-fund", `${name}@${version}`],
      target,
    );
    if (result.code !== 0) return npmFailure(result.output, result.code);
    await rename(target, dir);
    return undefined;
  });
}

/** The installed package folder of `name@version` (installing it first if missing), or why there is none. */
export async function installedPackageDir(
  name: string,
  version: string,
  progress: (message: string) => void,
): Promise<{ dir: string; version: string } | { reason: string }> {
  const root = installDir(name, version);
  const dir = path.join(root, "node_modules", ...name.split("/"));
  if (!existsSync(dir)) {
    const failure = await install(name, version, root, progress).catch((error: Error) => error.message);
    if (failure !== undefined) return { reason: failure };
  }
  const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as { version: string };
  return { dir, version: manifest.version };
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
  const installed = await installedPackageDir(PI_AI_PACKAGE, PI_AI_VERSION, progress);
  if ("reason" in installed) return { installed: false, reason: installed.reason };
  const manifest = JSON.parse(await readFile(path.join(installed.dir, "package.json"), "utf8"));
  const entry = manifest.exports?.["./openai-completions"]?.import;
  if (typeof entry !== "string") return { installed: false, reason: "its package has no ./openai-completions export" };
  const module = (await import(pathToFileURL(path.join(installed.dir, entry)).href)) as {
    streamOpenAICompletions: StreamOpenAICompletions;
  };
  return {
    installed: true,
    version: installed.version,
    stream: (baseURL, context) => module.streamOpenAICompletions(piModel(baseURL), context, { apiKey: "sk-bench" }),
  };
}
