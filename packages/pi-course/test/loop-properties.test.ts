import { test } from "node:test";
import fc from "fast-check";
import { runAgentLoop } from "../src/agent-loop.js";
import { loopProperty, propertyParameters } from "./properties/loop-property.js";

test("性质：任意脚本、完成顺序、取消点与 maxSteps 下，每个调用恰有一条配对结果，reason 符合章节表，context 不修改", async (t) => {
  const parameters = propertyParameters();
  const { seed, numRuns } = parameters;
  t.diagnostic(`fast-check seed ${seed}, ${numRuns} runs (PI_PROPERTY_SEED / PI_PROPERTY_RUNS to change)`);
  // On failure fast-check's message carries the seed, the replay path and the shrunk scenario.
  await fc.assert(loopProperty(runAgentLoop), parameters);
});
