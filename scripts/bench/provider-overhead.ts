// The provider part: µs per chunk of one 10,000-chunk stream through the loopback server, read by
// the raw `openai` SDK stream (no mapping), by our provider, and by upstream Pi's provider.
import { openAICompatibleModel } from "@pi/ai";
import type { ModelRequest } from "@pi/core";
import OpenAI from "openai";
import { loadPiUpstream, type PiContext } from "./pi-upstream.js";
import { PROVIDER_CHUNKS, type ProviderFixture, providerFixture } from "./provider-fixture.js";
import { startProviderServer } from "./provider-server.js";
import { median, type Summary, summarize } from "./stats.js";

export interface ProviderPlan {
  rounds: number;
  warmupRuns: number;
}

export type ProviderVariant = "raw" | "ours" | "pi";

export interface ProviderReport {
  plan: ProviderPlan;
  chunks: number;
  /** CPU µs (user + system, this process) per chunk per variant; pi is absent when it is not installed. */
  cpuPerChunk: Partial<Record<ProviderVariant, Summary>>;
  /** Wall µs per chunk: on a loaded machine it also counts the time other processes held the CPU. */
  wallPerChunk: Partial<Record<ProviderVariant, Summary>>;
  /** Median over rounds of the variant's CPU time ÷ raw's, measured in the same round (and phase). */
  ratio: Partial<Record<ProviderVariant, number>>;
  pi: { installed: true; version: string } | { installed: false; reason: string };
}

const SYSTEM = "You are a benchmark.";
const PROMPT = "Write the notes.";
const WRITE_TOOL = {
  name: "write",
  description: "Write a file.",
  parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
};

type Run = () => Promise<void>;

function check(variant: ProviderVariant, ok: boolean, what: string): void {
  if (!ok) throw new Error(`provider bench: the ${variant} run ${what}`);
}

function rawRun(baseURL: string): Run {
  const client = new OpenAI({ baseURL, apiKey: "sk-bench", maxRetries: 0 });
  return async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: PROMPT },
      ],
      tools: [{ type: "function", function: WRITE_TOOL }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let chunks = 0;
    for await (const _chunk of stream) chunks += 1;
    check("raw", chunks === PROVIDER_CHUNKS, `read ${chunks} chunks`);
  };
}

function oursRun(baseURL: string, fixture: ProviderFixture): Run {
  const model = openAICompatibleModel({ baseURL, model: "gpt-4o-mini", apiKey: "sk-bench", maxRetries: 0 });
  const request: ModelRequest = {
    systemPrompt: SYSTEM,
    messages: [{ role: "user", content: PROMPT, timestamp: 0 }],
    tools: [WRITE_TOOL],
  };
  return async () => {
    const stream = model.stream(request);
    for await (const _event of stream);
    const assistant = await stream.result();
    const [text, call] = assistant.content;
    check("ours", assistant.stopReason === "toolUse", `ended ${assistant.stopReason}: ${assistant.errorMessage}`);
    check("ours", text?.type === "text" && text.text === fixture.text, "lost text");
    check("ours", call?.type === "toolCall" && call.arguments.content === fixture.content, "lost the call");
  };
}

interface Samples {
  cpu: number[];
  wall: number[];
}

/**
 * Warm-up, then `rounds` rounds of every run in rotating order. No forced collection between runs
 * (unlike the loop part): a full collection shrinks the young generation, every run then grows it
 * again, and a reader that keeps the answer (ours, Pi) pays that in promotions the raw reader never
 * makes. That is a cost of a fresh heap, not of the mapping; docs/benchmarks.md gives both figures.
 * Rotating the order shares out whose garbage each run inherits.
 */
async function measureRounds(
  plan: ProviderPlan,
  runs: [ProviderVariant, Run][],
): Promise<Map<ProviderVariant, Samples>> {
  for (let run = 0; run < plan.warmupRuns; run += 1) for (const [, execute] of runs) await execute();
  const samples = new Map<ProviderVariant, Samples>(runs.map(([variant]) => [variant, { cpu: [], wall: [] }]));
  for (let round = 0; round < plan.rounds; round += 1) {
    for (let index = 0; index < runs.length; index += 1) {
      const [variant, execute] = runs[(index + round) % runs.length] as [ProviderVariant, Run];
      const startedCpu = process.cpuUsage();
      const started = performance.now();
      await execute();
      const used = process.cpuUsage(startedCpu);
      const sample = samples.get(variant) as Samples;
      sample.wall.push(((performance.now() - started) * 1000) / PROVIDER_CHUNKS);
      sample.cpu.push((used.user + used.system) / PROVIDER_CHUNKS);
    }
  }
  return samples;
}

function ratioToRaw(samples: Map<ProviderVariant, Samples>, variant: ProviderVariant): number {
  const raw = (samples.get("raw") as Samples).cpu;
  return median((samples.get(variant) as Samples).cpu.map((value, round) => value / (raw[round] as number)));
}

/**
 * Two phases: raw against ours, then raw against Pi. Pi is loaded only for the second: with its
 * module graph in the process, our provider measured up to 1.6× raw instead of about 1.1×.
 */
export async function measureProviderOverhead(
  plan: ProviderPlan,
  progress: (message: string) => void,
): Promise<ProviderReport> {
  const fixture = providerFixture();
  const server = await startProviderServer(fixture.body);
  try {
    const raw = rawRun(server.baseURL);
    const ours = await measureRounds(plan, [
      ["raw", raw],
      ["ours", oursRun(server.baseURL, fixture)],
    ]);
    const report: ProviderReport = {
      plan,
      chunks: PROVIDER_CHUNKS,
      cpuPerChunk: { raw: summarize(ours.get("raw")?.cpu ?? []), ours: summarize(ours.get("ours")?.cpu ?? []) },
      wallPerChunk: { raw: summarize(ours.get("raw")?.wall ?? []), ours: summarize(ours.get("ours")?.wall ?? []) },
      ratio: { raw: 1, ours: ratioToRaw(ours, "ours") },
      pi: { installed: false, reason: "" },
    };
    const pi = await loadPiUpstream(progress);
    if (!pi.installed) {
      report.pi = pi;
      return report;
    }
    const context: PiContext = {
      systemPrompt: SYSTEM,
      messages: [{ role: "user", content: PROMPT, timestamp: 0 }],
      tools: [WRITE_TOOL],
    };
    const piSamples = await measureRounds(plan, [
      ["raw", raw],
      [
        "pi",
        async () => {
          const stream = pi.stream(server.baseURL, context);
          for await (const _event of stream);
          const assistant = await stream.result();
          check("pi", assistant.stopReason === "toolUse", `ended ${assistant.stopReason}`);
        },
      ],
    ]);
    report.cpuPerChunk.pi = summarize(piSamples.get("pi")?.cpu ?? []);
    report.wallPerChunk.pi = summarize(piSamples.get("pi")?.wall ?? []);
    report.ratio.pi = ratioToRaw(piSamples, "pi");
    report.pi = { installed: true, version: pi.version };
    return report;
  } finally {
    await server.close();
  }
}
