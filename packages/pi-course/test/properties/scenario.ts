import {
  type AssistantMessage,
  assistantMessage,
  type Context,
  type StopReason,
  type ToolCall,
  text,
  userMessage,
} from "@pi/core";
import fc from "fast-check";

/**
 * One generated run, as plain data so that fast-check prints a shrunk
 * counterexample a reader can replay by hand.
 */
export interface Scenario {
  /** The model's turns, one per request; a request past the script ends in the ScriptedModel's error terminal. */
  turns: ScriptedTurn[];
  maxSteps: number;
  abort: AbortPoint;
  /** "injected": options.executeToolCall; "default": @pi/core's executeToolCall with the `probe` tool. */
  executor: "injected" | "default";
  /** Extra messages already in the caller's context after the first user message. */
  history: "none" | "earlier-round-trip";
}

export interface ScriptedTurn {
  stopReason: StopReason;
  withText: boolean;
  calls: ScriptedCall[];
  /** How the model double breaks the protocol while producing this turn: the run must reject with its error. */
  fault: ModelFault;
}

export type ModelFault = "none" | "stream-throws" | "iteration-throws" | "result-rejects";

export interface ScriptedCall {
  /** Drawn from a small pool, so duplicate ids within and across turns are common. */
  id: string;
  /** `ghost` is registered nowhere. */
  name: "probe" | "ghost";
  /** False: an extra property the probe's schema forbids. */
  validArguments: boolean;
  /** Among the calls running at once, the lowest rank completes first. */
  rank: number;
  outcome: ExecutionOutcome;
  /** When the tool reports progress: before its result, after it, or both. */
  progress: "none" | "before" | "after" | "both";
}

export type ExecutionOutcome = "resolve" | "reject-error" | "reject-string" | "reject-undefined" | "throw-sync";

export type AbortPoint =
  | { at: "never" }
  | { at: "before-run" }
  /** Aborted as the model receives this request (1-based). */
  | { at: "model-request"; request: number }
  /** Aborted as this tool execution starts (1-based, counted over the whole run). */
  | { at: "tool-execution"; execution: number };

/** Values with weights; a counterexample shrinks towards the first, the plainest. */
const weighted = <T>(...entries: [T, number][]) =>
  fc.oneof({ withCrossShrink: true }, ...entries.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));

const callArbitrary: fc.Arbitrary<ScriptedCall> = fc.record({
  id: fc.constantFrom("call-1", "call-2", "call-3"),
  name: weighted<ScriptedCall["name"]>(["probe", 4], ["ghost", 1]),
  validArguments: weighted([true, 5], [false, 1]),
  rank: fc.nat(9),
  outcome: weighted<ExecutionOutcome>(
    ["resolve", 6],
    ["reject-error", 1],
    ["reject-string", 1],
    ["reject-undefined", 1],
    ["throw-sync", 1],
  ),
  progress: fc.constantFrom("none", "before", "after", "both"),
});

const turnArbitrary: fc.Arbitrary<ScriptedTurn> = fc.record({
  stopReason: weighted<StopReason>(["toolUse", 12], ["stop", 2], ["length", 1], ["error", 1], ["aborted", 1]),
  withText: fc.boolean(),
  // Mostly a non-empty batch, so that many runs reach the executor.
  calls: fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant<ScriptedCall[]>([]), weight: 1 },
    { arbitrary: fc.array(callArbitrary, { minLength: 1, maxLength: 5 }), weight: 6 },
  ),
  fault: weighted<ModelFault>(["none", 30], ["stream-throws", 1], ["iteration-throws", 1], ["result-rejects", 1]),
});

const abortArbitrary: fc.Arbitrary<AbortPoint> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.constant({ at: "never" as const }), weight: 4 },
  { arbitrary: fc.constant({ at: "before-run" as const }), weight: 1 },
  {
    arbitrary: fc.record({ at: fc.constant("model-request" as const), request: fc.integer({ min: 1, max: 6 }) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ at: fc.constant("tool-execution" as const), execution: fc.integer({ min: 1, max: 8 }) }),
    weight: 2,
  },
);

const scenarioRecord: fc.Arbitrary<Scenario> = fc.record({
  // An empty script is rare: its one request fails at once.
  turns: fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant<ScriptedTurn[]>([]), weight: 1 },
    { arbitrary: fc.array(turnArbitrary, { minLength: 1, maxLength: 6 }), weight: 12 },
  ),
  // Mostly small limits, so that the limit is reached often; sometimes up to 40.
  maxSteps: fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 3 },
    fc.integer({ min: 1, max: 40 }),
  ),
  abort: abortArbitrary,
  executor: fc.constantFrom("injected", "default"),
  history: fc.constantFrom("none", "earlier-round-trip"),
});

/** Scenarios that fast-check prints as a short story rather than one long JSON line. */
export const scenarioArbitrary: fc.Arbitrary<Scenario> = scenarioRecord.map((scenario) =>
  Object.defineProperty(scenario, fc.toStringMethod, { value: () => describeScenario(scenario), enumerable: false }),
);

/** One line for the run's settings, then one per scripted turn, e.g. `turn 1: length + probe#call-1 …`. */
export function describeScenario(scenario: Scenario): string {
  const { abort } = scenario;
  const abortText =
    abort.at === "model-request"
      ? `abort as request ${abort.request} starts`
      : abort.at === "tool-execution"
        ? `abort as tool execution ${abort.execution} starts`
        : abort.at === "before-run"
          ? "aborted before the run"
          : "no abort";
  const lines = [
    `maxSteps ${scenario.maxSteps}, ${abortText}, ${scenario.executor} executor, history ${scenario.history}`,
  ];
  scenario.turns.forEach((turn, turnIndex) => {
    const calls = turn.calls.map((call, callIndex) => {
      const args = call.validArguments ? "" : " bad-args";
      return `${call.name}#${call.id}(${callKey(turnIndex, callIndex)}${args}) rank ${call.rank} ${call.outcome} progress ${call.progress}`;
    });
    const fault = turn.fault === "none" ? "" : ` [model fault: ${turn.fault}]`;
    const body = calls.length === 0 ? "no calls" : calls.join(", ");
    lines.push(`  turn ${turnIndex + 1}: ${turn.stopReason}${turn.withText ? " + text" : ""}, ${body}${fault}`);
  });
  if (scenario.turns.length === 0) lines.push("  (empty script: request 1 is past the script)");
  return `\n${lines.join("\n")}`;
}

/** The key a call carries in its arguments: which turn and position it comes from, whatever its id. */
export function callKey(turnIndex: number, callIndex: number): string {
  return `t${turnIndex + 1}c${callIndex + 1}`;
}

/** The turn and call a key names; the executor doubles find their plan through it. */
export function planOf(scenario: Scenario, key: string): { turn: ScriptedTurn; call: ScriptedCall } {
  const match = /^t(\d+)c(\d+)$/.exec(key);
  const turn = match ? scenario.turns[Number(match[1]) - 1] : undefined;
  const call = match ? turn?.calls[Number(match[2]) - 1] : undefined;
  if (turn === undefined || call === undefined) throw new Error(`no scripted call has the key "${key}"`);
  return { turn, call };
}

export function toolCallOf(call: ScriptedCall, key: string): ToolCall {
  const args: Record<string, unknown> = call.validArguments ? { note: key } : { note: key, unexpected: true };
  return { type: "toolCall", id: call.id, name: call.name, arguments: args };
}

/** The assistant messages the scripted model plays, in order. */
export function scriptOf(scenario: Scenario): AssistantMessage[] {
  return scenario.turns.map((turn, turnIndex) => {
    const content: AssistantMessage["content"] = turn.withText ? [text(`turn ${turnIndex + 1}`)] : [];
    turn.calls.forEach((call, callIndex) => {
      content.push(toolCallOf(call, callKey(turnIndex, callIndex)));
    });
    const message = assistantMessage(content, turn.stopReason, 100 + turnIndex);
    if (turn.stopReason === "error" || turn.stopReason === "aborted")
      message.errorMessage = `scripted ${turn.stopReason}`;
    return message;
  });
}

/** The caller's context: a system prompt, a stale tools list the loop must ignore, and some history. */
export function contextOf(scenario: Scenario): Context {
  const messages: Context["messages"] = [userMessage("请读取 README.md，并告诉我项目名。", 1)];
  if (scenario.history === "earlier-round-trip") {
    const earlier: ToolCall = { type: "toolCall", id: "call-0", name: "probe", arguments: { note: "earlier" } };
    messages.push(assistantMessage([earlier], "toolUse", 2), {
      role: "toolResult",
      toolCallId: "call-0",
      toolName: "probe",
      content: [text("earlier output")],
      details: { nested: { list: [1, 2] } },
      isError: false,
      timestamp: 3,
    });
  }
  return {
    systemPrompt: "你是 tiny-pi。",
    messages,
    tools: [{ name: "stale", description: "from context.tools", parameters: {} }],
  };
}
