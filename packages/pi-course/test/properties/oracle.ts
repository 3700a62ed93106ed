import type { AgentRunResult } from "../../src/agent-loop.js";
import type { ModelFailureCause } from "./doubles.js";
import type { Scenario, ScriptedCall } from "./scenario.js";

/** How a run settles: resolves with a reason, or rejects with the model's failure on one request. */
export type Ending =
  | { settles: "resolves"; reason: AgentRunResult["reason"]; steps: number }
  | { settles: "rejects"; request: number; cause: ModelFailureCause };

export type ExpectedEnding = Ending & {
  /** Tool executions the doubles should see: executor calls, or probe runs with the default executor. */
  executions: number;
};

/**
 * What the chapter and the loop's failure semantics prescribe for a scenario, worked out from
 * the script alone: the abort check before each request (steps - 1); a request whose model
 * breaks the protocol rejecting the run whatever the signal; a request past the script
 * ending in "error" (the ScriptedModel's error terminal); the five-row table; the abort
 * check after each tool batch (steps); then `maxSteps`.
 * Written independently of the loop so that a broken loop cannot agree with it by construction.
 */
export function expectedEnding(scenario: Scenario): ExpectedEnding {
  const { abort } = scenario;
  let aborted = abort.at === "before-run";
  let executions = 0;
  const resolves = (reason: AgentRunResult["reason"], steps: number): ExpectedEnding => ({
    settles: "resolves",
    reason,
    steps,
    executions,
  });
  for (let request = 1; request <= scenario.maxSteps; request += 1) {
    if (aborted) return resolves("aborted", request - 1);
    if (abort.at === "model-request" && abort.request === request) aborted = true;

    const turn = scenario.turns[request - 1];
    if (turn === undefined) return resolves("error", request);
    if (turn.fault !== "none") return { settles: "rejects", request, cause: turn.fault, executions };
    const callCount = turn.calls.length;
    if (turn.stopReason === "toolUse" && callCount > 0) {
      const before = executions;
      executions += turn.calls.filter((call) => reachesTool(scenario, call)).length;
      if (abort.at === "tool-execution" && abort.execution > before && abort.execution <= executions) aborted = true;
      if (aborted) return resolves("aborted", request);
      continue;
    }
    if (turn.stopReason === "toolUse") return resolves("error", request);
    if (turn.stopReason === "stop") return resolves(callCount === 0 ? "stop" : "error", request);
    return resolves(turn.stopReason, request);
  }
  return resolves("maxSteps", scenario.maxSteps);
}

/** Whether executing this call runs the double: always when injected; only a valid probe call by default. */
export function reachesTool(scenario: Scenario, call: ScriptedCall): boolean {
  return scenario.executor === "injected" || (call.name === "probe" && call.validArguments);
}
