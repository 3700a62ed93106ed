import fc from "fast-check";
import { checkInvariants } from "./invariants.js";
import { type RunLoop, runScenario } from "./run-scenario.js";
import { type Scenario, scenarioArbitrary } from "./scenario.js";

/** Generated runs in `npm test`; `PI_PROPERTY_RUNS` asks for more (or fewer). */
export const DEFAULT_RUNS = 1000;
/** A fixed seed keeps `npm test` reproducible; `PI_PROPERTY_SEED` explores others. */
export const DEFAULT_SEED = 20260707;

/** The property: every generated scenario, run through `runLoop`, keeps every invariant. */
export function loopProperty(runLoop: RunLoop): fc.IAsyncPropertyWithHooks<[Scenario]> {
  return fc.asyncProperty(scenarioArbitrary, async (scenario) => {
    checkInvariants(await runScenario(runLoop, scenario));
  });
}

/**
 * Parameters for fc.assert / fc.check: seed and run count from the environment when set, and
 * the broken rule's message inside the report, next to the seed and the shrunk scenario.
 */
export function propertyParameters(env: NodeJS.ProcessEnv = process.env): {
  seed: number;
  numRuns: number;
  includeErrorInReport: true;
} {
  return {
    seed: wholeNumber(env.PI_PROPERTY_SEED, "PI_PROPERTY_SEED") ?? DEFAULT_SEED,
    numRuns: wholeNumber(env.PI_PROPERTY_RUNS, "PI_PROPERTY_RUNS") ?? DEFAULT_RUNS,
    includeErrorInReport: true,
  };
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) {
    throw new RangeError(`${name} must be a whole number ≥ 0, got "${value}"`);
  }
  return number;
}
