// `npm run bench -- --only models`: chapter 18's cost. Routing: what a request costs behind a
// virtual model whose route picks the model, minus what it costs straight on the model (stream()
// and its result, a transcript as long as the loop bench's at its midpoint), as a share of
// chapter 07's loop bench step (the "loop" variant, S steps × 1 call). Timing whole loop runs with
// and without the route in one process measures mostly which of them the JIT saw first (the
// loop's call site turns polymorphic) and, on a loaded machine, the neighbours: routing's own
// work is isolated instead, and each figure is the fastest of its rounds (other processes only
// ever add time; the fastest round is the closest to the code's own cost). The model in force: modelInForce walking a 100,000-entry branch whose
// only model_change is next to the root (the whole branch is read), median of 11.

import { createModelCatalogue, modelChangeEntry, modelInForce, routedModel, type SessionEntry } from "@pi/coding-agent";
import { type Message, type Model, type ModelRequest, type ToolCall, text, userMessage } from "@pi/core";
import { BenchModel } from "./bench-model.js";
import { loopOver } from "./bench-runs.js";
import { collectGarbage } from "./gc.js";
import type { Goal } from "./goals.js";
import { median } from "./stats.js";
import { fixed, goalText, type Table } from "./table.js";

export const ROUTING_OVERHEAD_LIMIT = 0.01;
export const BRANCH_ENTRIES = 100_000;
export const IN_FORCE_LIMIT_MS = 10;

export interface ModelsPlan {
  steps: number;
  /** Requests timed per sample of routing's cost. */
  requests: number;
  rounds: number;
}

export interface ModelsReport {
  routing: { steps: number; rounds: number; usPerStep: number; addedUsPerRequest: number; share: number };
  inForce: { entries: number; medianMs: number; found: string | undefined };
}

const PHYSICAL = {
  id: "bench/model",
  provider: "bench",
  modelId: "model",
  api: "openai-completions",
  baseUrl: "http://127.0.0.1:9/v1",
  contextWindow: 128_000,
};

/** µs per step of chapter 07's loop straight on the bench model. */
async function loopStep(steps: number): Promise<number> {
  const bench = new BenchModel(steps, 1);
  const started = performance.now();
  const messages = await loopOver(bench, bench);
  const elapsed = performance.now() - started;
  if (messages.length !== 2 + steps * 2) throw new Error(`models bench: a run ended with ${messages.length} messages`);
  return (elapsed * 1000) / steps;
}

/** A transcript like the loop's after `steps` steps: the prompt, then a marked reply and its result per step. */
function transcript(steps: number): Message[] {
  const messages: Message[] = [userMessage("Run the benchmark.", 0)];
  for (let step = 0; step < steps; step += 1) {
    const call: ToolCall = { type: "toolCall", id: `call-${step}`, name: "noop", arguments: { k: 0 } };
    const reply = { role: "assistant", content: [text("working"), call], stopReason: "toolUse", timestamp: 0 };
    messages.push({ ...reply, api: PHYSICAL.api, provider: PHYSICAL.provider, model: PHYSICAL.modelId } as Message);
    messages.push({
      role: "toolResult",
      toolCallId: call.id,
      toolName: "noop",
      content: [],
      isError: false,
      timestamp: 0,
    });
  }
  return messages;
}

/** µs per request of stream() and its result, straight on the model or behind the route. */
async function perRequest(requests: number, routed: boolean, request: ModelRequest): Promise<number> {
  const bench = new BenchModel(requests, 1);
  const catalogue = createModelCatalogue(
    ["bench"],
    [PHYSICAL],
    [{ id: "auto", route: () => PHYSICAL.id, describe: "" }],
  );
  const model: Model = routed ? routedModel(catalogue, "auto", { connect: () => bench }) : bench;
  const started = performance.now();
  for (let index = 0; index < requests; index += 1) {
    const stream = model.stream(request);
    for await (const _event of stream);
    await stream.result();
  }
  return ((performance.now() - started) * 1000) / requests;
}

function branch(): SessionEntry[] {
  const id = (index: number) => index.toString(16).padStart(8, "0");
  const entries: SessionEntry[] = [modelChangeEntry("bench/model", null, id(1))];
  for (let index = 2; index <= BRANCH_ENTRIES; index += 1) {
    const role = index % 2 === 0 ? "user" : "toolResult";
    const message =
      role === "user"
        ? { role, content: `step ${index}`, timestamp: index }
        : { role, toolCallId: `c${index}`, toolName: "noop", content: [], isError: false, timestamp: index };
    entries.push({
      type: "message",
      id: id(index),
      parentId: id(index - 1),
      timestamp: "2026-12-01T10:00:00.000Z",
      message,
    } as SessionEntry);
  }
  return entries;
}

export async function measureModels(plan: ModelsPlan): Promise<ModelsReport> {
  const request: ModelRequest = { messages: transcript(plan.steps / 2), tools: [] };
  for (let warmup = 0; warmup < 3; warmup += 1) {
    await loopStep(plan.steps);
    await perRequest(plan.requests, false, request);
    await perRequest(plan.requests, true, request);
  }
  const steps: number[] = [];
  const direct: number[] = [];
  const routed: number[] = [];
  for (let round = 0; round < plan.rounds; round += 1) {
    collectGarbage();
    steps.push(await loopStep(plan.steps));
    collectGarbage();
    // Alternate which goes first, so neither always runs on the warmer heap.
    const first = round % 2 === 0;
    const a = await perRequest(plan.requests, !first, request);
    const b = await perRequest(plan.requests, first, request);
    direct.push(first ? a : b);
    routed.push(first ? b : a);
  }
  const entries = branch();
  let found: string | undefined;
  for (let warmup = 0; warmup < 3; warmup += 1) modelInForce(entries);
  const times = Array.from({ length: 11 }, () => {
    const started = performance.now();
    found = modelInForce(entries);
    return performance.now() - started;
  });
  const usPerStep = Math.min(...steps);
  const addedUs = Math.min(...routed) - Math.min(...direct);
  return {
    routing: {
      steps: plan.steps,
      rounds: plan.rounds,
      usPerStep,
      addedUsPerRequest: addedUs,
      share: addedUs / usPerStep,
    },
    inForce: { entries: entries.length, medianMs: median(times), found },
  };
}

export function modelsGoals(report: ModelsReport): Goal[] {
  const { routing, inForce } = report;
  return [
    {
      name: `models: routing's share of a loop step (S=${routing.steps}, K=1, fastest of ${routing.rounds} rounds)`,
      value: routing.share,
      limit: ROUTING_OVERHEAD_LIMIT,
      unit: "×",
      met: routing.share <= ROUTING_OVERHEAD_LIMIT,
    },
    {
      name: `models: model in force on a ${inForce.entries}-entry branch (median)`,
      value: inForce.medianMs,
      limit: IN_FORCE_LIMIT_MS,
      unit: "ms",
      met: inForce.medianMs <= IN_FORCE_LIMIT_MS && inForce.found === "bench/model",
    },
  ];
}

export function modelsTable(report: ModelsReport): Table {
  const { routing, inForce } = report;
  return {
    title: `Virtual models: routing on chapter 07's loop step, the model in force on a ${inForce.entries}-entry branch`,
    headers: ["measure", "value"],
    rows: [
      [`chapter 07's loop step, S=${routing.steps}, K=1 (µs, fastest round)`, fixed(routing.usPerStep, 2)],
      [
        "added per request behind a route: stream() + result() (µs, fastest rounds)",
        fixed(routing.addedUsPerRequest, 3),
      ],
      ["routing's share of a step", fixed(routing.share, 4)],
      [`modelInForce over ${inForce.entries} entries (median ms)`, fixed(inForce.medianMs, 3)],
    ],
    notes: modelsGoals(report).map((entry) =>
      goalText(entry.name, `${fixed(entry.value, 4)} ${entry.unit}`, `${entry.limit} ${entry.unit}`, entry.met),
    ),
  };
}
