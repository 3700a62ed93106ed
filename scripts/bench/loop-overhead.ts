// Part 1: what runAgentLoop costs per step on top of merely consuming the same model streams.
import { BenchModel } from "./bench-model.js";
import { consume, VARIANTS, type Variant } from "./bench-runs.js";
import { collectGarbage } from "./gc.js";
import { median, type Summary, summarize } from "./stats.js";

export interface LoopOverheadPlan {
  steps: number[];
  calls: number[];
  rounds: number;
  warmupRuns: number;
  /** Each sample repeats runs until it covers this many steps, so no sample hinges on one collection. */
  stepsPerSample: number;
}

export interface LoopOverheadRow {
  calls: number;
  steps: number;
  /** µs per step, one sample per round. */
  perStep: Record<Variant, Summary>;
  /** Median over rounds of variant ÷ bare measured in the same round. */
  ratio: Record<Variant, number>;
  /** Median over rounds of agent ÷ loop measured in the same round: what the Agent adds per step. */
  agentOverLoop: number;
  /** Median per-step cost at this S ÷ the one at the smallest S. */
  scaling: Record<Variant, number>;
  /** The first and last 10% of the steps, per variant (S=largest only carries a meaningful window). */
  early: Record<Variant, StepWindow>;
  late: Record<Variant, StepWindow>;
  /** late ÷ early of the median step: the per-step work, free of where collections happen to fall. */
  lateOverEarly: Record<Variant, number>;
  /** late ÷ early of the window mean: everything, collection pauses included. */
  lateOverEarlyMean: Record<Variant, number>;
}

/** µs per step within a window of a run: its median step, and its mean (collection pauses included). */
export interface StepWindow {
  median: number;
  mean: number;
}

export interface LoopOverheadReport {
  plan: LoopOverheadPlan;
  rows: LoopOverheadRow[];
}

interface RunSample {
  usPerStep: number;
  early: StepWindow;
  late: StepWindow;
}

/** Steps `from` to `to` - 1 of a run, from the times the model saw each request. */
function stepWindow(times: Float64Array, from: number, to: number): StepWindow {
  const steps: number[] = [];
  for (let step = from; step < to; step += 1)
    steps.push(((times[step + 1] as number) - (times[step] as number)) * 1000);
  return { median: median(steps), mean: (((times[to] as number) - (times[from] as number)) * 1000) / (to - from) };
}

async function runOnce(variant: Variant, steps: number, calls: number): Promise<RunSample> {
  const model = new BenchModel(steps, calls);
  const started = performance.now();
  const messages = await consume(variant, model);
  const elapsed = performance.now() - started;
  const expected = 1 + steps * (1 + calls) + 1;
  if (messages.length !== expected || model.requestCount !== steps + 1) {
    throw new Error(`${variant} run of ${steps}×${calls} ended with ${messages.length} messages, expected ${expected}`);
  }
  const tenth = Math.max(1, Math.floor(steps / 10));
  return {
    usPerStep: (elapsed * 1000) / steps,
    early: stepWindow(model.requestTimes, 0, tenth),
    late: stepWindow(model.requestTimes, steps - tenth, steps),
  };
}

function byVariant<T>(pick: (variant: Variant) => T): Record<Variant, T> {
  return Object.fromEntries(VARIANTS.map((variant) => [variant, pick(variant)])) as Record<Variant, T>;
}

/** One sample: back-to-back runs covering at least `stepsPerSample` steps, after a full collection. */
async function runSample(variant: Variant, steps: number, calls: number, stepsPerSample: number): Promise<RunSample[]> {
  const runs = Math.max(1, Math.ceil(stepsPerSample / steps));
  const samples: RunSample[] = [];
  collectGarbage();
  for (let run = 0; run < runs; run += 1) samples.push(await runOnce(variant, steps, calls));
  return samples;
}

/** A window over all runs: the median of their median steps, and the mean over all their steps. */
function windowOf(runs: RunSample[], which: "early" | "late"): StepWindow {
  return {
    median: median(runs.map((run) => run[which].median)),
    mean: runs.reduce((sum, run) => sum + run[which].mean, 0) / runs.length,
  };
}

/** Runs every variant and size round-robin in this one process, after a warm-up, and summarizes per size. */
export async function measureLoopOverhead(plan: LoopOverheadPlan): Promise<LoopOverheadReport> {
  const sizes = plan.calls.flatMap((calls) => plan.steps.map((steps) => ({ calls, steps })));
  const key = (calls: number, steps: number) => `${calls}:${steps}`;

  for (let run = 0; run < plan.warmupRuns; run += 1) {
    for (const { calls, steps } of sizes) for (const variant of VARIANTS) await runOnce(variant, steps, calls);
  }

  // Per size and variant: one entry per round, holding that round's runs.
  const rounds = new Map<string, Record<Variant, RunSample[][]>>();
  for (const { calls, steps } of sizes)
    rounds.set(
      key(calls, steps),
      byVariant(() => []),
    );
  for (let round = 0; round < plan.rounds; round += 1) {
    // Rotate which variant goes first, so none always runs on another's leftovers.
    const order = VARIANTS.map((_, index) => VARIANTS[(index + round) % VARIANTS.length] as Variant);
    for (const { calls, steps } of sizes) {
      const bucket = rounds.get(key(calls, steps)) as Record<Variant, RunSample[][]>;
      for (const variant of order) bucket[variant].push(await runSample(variant, steps, calls, plan.stepsPerSample));
    }
  }

  const perStep = (runs: RunSample[]) => runs.reduce((sum, run) => sum + run.usPerStep, 0) / runs.length;
  const smallest = Math.min(...plan.steps);
  const rows = sizes.map(({ calls, steps }): LoopOverheadRow => {
    const bucket = rounds.get(key(calls, steps)) as Record<Variant, RunSample[][]>;
    const base = rounds.get(key(calls, smallest)) as Record<Variant, RunSample[][]>;
    const samples = (variant: Variant) => bucket[variant].map(perStep);
    const allRuns = (variant: Variant) => bucket[variant].flat();
    const bare = samples("bare");
    const loop = samples("loop");
    return {
      calls,
      steps,
      perStep: byVariant((variant) => summarize(samples(variant))),
      ratio: byVariant((variant) => median(samples(variant).map((value, round) => value / (bare[round] as number)))),
      agentOverLoop: median(samples("agent").map((value, round) => value / (loop[round] as number))),
      scaling: byVariant((variant) => median(samples(variant)) / median(base[variant].map(perStep))),
      early: byVariant((variant) => windowOf(allRuns(variant), "early")),
      late: byVariant((variant) => windowOf(allRuns(variant), "late")),
      lateOverEarly: byVariant((variant) => median(allRuns(variant).map((run) => run.late.median / run.early.median))),
      lateOverEarlyMean: byVariant((variant) => {
        const runs = allRuns(variant);
        return windowOf(runs, "late").mean / windowOf(runs, "early").mean;
      }),
    };
  });
  return { plan, rows };
}
