import type { Context, Message, ModelEvent, ModelRequest, ToolDefinition } from "@pi/core";
import type { AgentLoopOptions, AgentRunResult, LoopEvent } from "../../src/agent-loop.js";
import { ControlledTools, FaultyScriptedModel, type ModelFailure } from "./doubles.js";
import { contextOf, type Scenario } from "./scenario.js";

/** The loop under test: the real one in `npm test`, a mutant in the mutation check. */
export type RunLoop = (options: AgentLoopOptions) => Promise<AgentRunResult>;

export interface Observation {
  scenario: Scenario;
  context: Context;
  contextBefore: Context;
  outcome: { result: AgentRunResult } | { error: unknown } | { hung: true };
  events: LoopEvent[];
  /** Deep snapshots of the model requests, the failed one included. */
  requests: ModelRequest[];
  /** Per request, the messages the loop passed (its own objects) and the events the model handed out. */
  requestMessages: Message[][];
  handedOut: ModelEvent[][];
  /** What the model threw or rejected with, and on which request. */
  modelFailures: ModelFailure[];
  definitions: ToolDefinition[];
  /** Keys of tool executions in start order, and in the order the test completed them. */
  started: string[];
  released: string[];
}

/** Lets every pending promise reaction run; the doubles never use timers to order anything. */
const settleMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs one scenario: whenever the loop has nothing left to do but wait on a
 * tool, the test completes the waiting execution of lowest rank, then reports
 * the progress due after it. A loop waiting on nothing the test controls is "hung".
 */
export async function runScenario(runLoop: RunLoop, scenario: Scenario): Promise<Observation> {
  const controller = new AbortController();
  const { abort } = scenario;
  const model = new FaultyScriptedModel(scenario, (request) => {
    if (abort.at === "model-request" && abort.request === request) controller.abort();
  });
  const tools = new ControlledTools(scenario, (execution) => {
    if (abort.at === "tool-execution" && abort.execution === execution) controller.abort();
  });
  if (abort.at === "before-run") controller.abort();

  const context = contextOf(scenario);
  const contextBefore = structuredClone(context);
  const events: LoopEvent[] = [];
  let outcome: Observation["outcome"] | undefined;
  runLoop({
    model,
    context,
    tools: tools.registry,
    signal: controller.signal,
    maxSteps: scenario.maxSteps,
    executeToolCall: scenario.executor === "injected" ? tools.executor : undefined,
    onEvent: (event) => events.push(event),
  }).then(
    (result) => {
      outcome = { result };
    },
    (error: unknown) => {
      outcome = { error };
    },
  );

  while (outcome === undefined) {
    await settleMicrotasks();
    tools.reportLateProgress();
    if (outcome === undefined && !tools.releaseNext()) outcome = { hung: true };
  }
  await settleMicrotasks();
  tools.reportLateProgress();

  return {
    scenario,
    context,
    contextBefore,
    outcome,
    events,
    requests: model.scripted.requests,
    requestMessages: model.requestMessages,
    handedOut: model.handedOut,
    modelFailures: model.failures,
    definitions: tools.registry.definitions(),
    started: tools.started,
    released: tools.released,
  };
}
