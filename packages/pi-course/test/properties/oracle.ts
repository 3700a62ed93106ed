import type { AgentRunResult } from "../../src/agent-loop.js";
import type { Scenario, ScriptedCall } from "./scenario.js";

export interface ExpectedEnding {
  reason: AgentRunResult["reason"];
  steps: number;
  /** Tool executions the doubles should see: executor calls, or probe runs with the default executor. */
  executions: number;
}

/**
 * What the chapter prescribes for a scenario, worked out from the script alone:
 * the five-row table, a model failure (or a request past the script) ending the
 * turn as `error` (`aborted` once the signal is aborted), the abort check before
 * each request (steps - 1) and after each tool batch (steps), then `maxSteps`.
 * Written independently of the loop so that a broken loop cannot agree with it by construction.
 */
export function expectedEnding(scenario: Scenario): ExpectedEnding {
  const { abort } = scenario;
  let aborted = abort.at === "before-run";
  let executions = 0;
  for (let request = 1; request <= scenario.maxSteps; request += 1) {
    if (aborted) return { reason: "aborted", steps: request - 1, executions };
    if (abort.at === "model-request" && abort.request === request) aborted = true;

    const turn = scenario.turns[request - 1];
    if (turn === undefined || turn.fault !== "none") {
      return { reason: aborted ? "aborted" : "error", steps: request, executions };
    }
    const callCount = turn.calls.length;
    if (turn.stopReason === "toolUse" && callCount > 0) {
      const before = executions;
      executions += turn.calls.filter((call) => reachesTool(scenario, call)).length;
      if (abort.at === "tool-execution" && abort.execution > before && abort.execution <= executions) aborted = true;
      if (aborted) return { reason: "aborted", steps: request, executions };
      continue;
    }
    if (turn.stopReason === "toolUse") return { reason: "error", steps: request, executions };
    if (turn.stopReason === "stop") return { reason: callCount === 0 ? "stop" : "error", steps: request, executions };
    return { reason: turn.stopReason, steps: request, executions };
  }
  return { reason: "maxSteps", steps: scenario.maxSteps, executions };
}

/** Whether executing this call runs the double: always when injected; only a valid probe call by default. */
export function reachesTool(scenario: Scenario, call: ScriptedCall): boolean {
  return scenario.executor === "injected" || (call.name === "probe" && call.validArguments);
}
