import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { type AssistantMessage, type Message, type ToolResultMessage, text, toolCallsOf } from "@pi/core";
import type { LoopEvent } from "../../src/agent-loop.js";
import { expectedFailureText } from "./doubles.js";
import { type Ending, expectedEnding } from "./oracle.js";
import type { Observation } from "./run-scenario.js";
import { callKey, planOf, type Scenario, type ScriptedCall, scriptOf } from "./scenario.js";
import { checkToolEventsPaired } from "./tool-event-pairing.js";

/**
 * Every invariant the chapter, the contract and the loop's failure semantics state, checked on
 * one observed run. A run that resolves is checked on its result and its events; a run that
 * rejects (a model broke the protocol) on what it left behind: the messages of the failed
 * request and the events emitted before it. Each failure names the rule it saw broken;
 * fast-check adds the seed and the shrunk scenario.
 */
export function checkInvariants(observation: Observation): void {
  const { scenario, outcome } = observation;
  assert.ok(!("hung" in outcome), "the loop stopped: it waits on nothing the test controls and never settled");
  assert.deepEqual(observation.context, observation.contextBefore, "the caller's context changed");
  for (const key of observation.started) {
    const { turn } = planOf(scenario, key);
    assert.ok(turn.stopReason === "toolUse", `the call ${key} of a ${turn.stopReason} turn was executed`);
  }

  const expected = expectedEnding(scenario);
  const observed = observedEnding(observation);
  assert.equal(
    observed,
    describeEnding(expected),
    `the run ${observed}; the chapter's table, abort checks, maxSteps and the model's failures prescribe that it ${describeEnding(expected)}`,
  );
  assert.ok(observation.requests.length <= scenario.maxSteps, "model requests exceed maxSteps");
  assert.equal(
    observation.started.length,
    expected.executions,
    `${observation.started.length} tool execution(s) (${observation.started.join(", ")}); the script allows ${expected.executions}`,
  );
  checkToolEventsPaired(observation.events);

  let transcript: Message[];
  let completedRequests: number;
  if ("result" in outcome) {
    const { result } = outcome;
    assert.ok(result.steps <= scenario.maxSteps, "steps exceed maxSteps");
    assert.equal(observation.requests.length, result.steps, "model requests differ from steps");
    transcript = result.messages;
    completedRequests = result.steps;
  } else {
    assert.ok(!observation.events.some((event) => event.type === "turn_end"), "a rejected run emitted turn_end");
    // The transcript as the failed request received it: the loop's own messages, in a copy of its array.
    transcript = observation.requestMessages.at(-1) ?? [];
    completedRequests = observation.requests.length - 1;
  }

  const prefix = observation.context.messages.length;
  assert.deepEqual(transcript.slice(0, prefix), observation.contextBefore.messages, "the context's messages lost");
  for (let index = 0; index < prefix; index += 1) {
    assert.notEqual(transcript[index], observation.context.messages[index], "a transcript message is the caller's");
  }
  const batches = transcriptBatches(transcript.slice(prefix));
  assert.equal(batches.length, completedRequests, "each completed model request appends exactly one assistant");
  checkAssistants(scenario, batches);
  checkRequests(observation, transcript, batches, prefix);
  checkEvents(observation, batches);
}

/** `resolves stop after 2 step(s)`, or `rejects with the model's failure on request 3 (result-rejects)`. */
function describeEnding(ending: Ending): string {
  return ending.settles === "resolves"
    ? `resolves ${ending.reason} after ${ending.steps} step(s)`
    : `rejects with the model's failure on request ${ending.request} (${ending.cause})`;
}

/** The same words for what the run did; a rejection counts as the model's only when it is the very value thrown. */
function observedEnding({ outcome, modelFailures }: Observation): string {
  if ("result" in outcome) return `resolves ${outcome.result.reason} after ${outcome.result.steps} step(s)`;
  if (!("error" in outcome)) return "hangs";
  const failure = modelFailures.find((candidate) => candidate.error === outcome.error);
  if (failure === undefined) return `rejects with an error the model did not raise: ${errorText(outcome.error)}`;
  return describeEnding({ settles: "rejects", request: failure.request, cause: failure.cause });
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

interface Batch {
  assistant: AssistantMessage;
  /** The results right after it, paired in call order. */
  results: ToolResultMessage[];
  /** Where the assistant sits in the transcript, counted after the context's own messages. */
  offset: number;
}

/** Splits the added messages into assistant + paired results; fails on any result out of place. */
function transcriptBatches(added: Message[]): Batch[] {
  const batches: Batch[] = [];
  let index = 0;
  while (index < added.length) {
    const assistant = added[index];
    assert.equal(assistant?.role, "assistant", `message ${index} added by the run is not an assistant after a batch`);
    const calls = toolCallsOf(assistant as AssistantMessage);
    const results: ToolResultMessage[] = [];
    calls.forEach((call, position) => {
      const result = added[index + 1 + position];
      assert.ok(result?.role === "toolResult", `call ${position + 1} (${call.id}) of an assistant has no result`);
      assert.deepEqual(
        { id: result.toolCallId, name: result.toolName },
        { id: call.id, name: call.name },
        `result ${position + 1} after an assistant is not paired to its call ${position + 1}: results follow call order`,
      );
      results.push(result);
    });
    batches.push({ assistant: assistant as AssistantMessage, results, offset: index });
    index += 1 + calls.length;
  }
  return batches;
}

/**
 * Each assistant is the model's final message for its request, never one made up for a failure
 * (past the script, the ScriptedModel's own error naming the request); results are right.
 */
function checkAssistants(scenario: Scenario, batches: Batch[]): void {
  const script = scriptOf(scenario);
  batches.forEach((batch, index) => {
    const turn = scenario.turns[index];
    const scripted = script[index];
    if (turn === undefined) {
      const { stopReason, content, errorMessage } = batch.assistant;
      assert.deepEqual(
        { stopReason, content },
        { stopReason: "error", content: [] },
        `request ${index + 1} past the script is not the ScriptedModel's error`,
      );
      assert.ok(
        errorMessage?.startsWith(
          `ScriptedModel: request ${index + 1} has no scripted turn (the script has ${script.length})`,
        ),
        `the error for request ${index + 1} past the script does not name the request number: ${errorMessage}`,
      );
      return;
    }
    assert.ok(
      turn !== undefined && scripted !== undefined && turn.fault === "none",
      `request ${index + 1} broke the protocol, yet an assistant for it is in the transcript`,
    );
    assert.deepEqual(batch.assistant, scripted, `assistant ${index + 1} is not the model's final message`);
    const executed = turn.stopReason === "toolUse";
    const rules = turn.calls.map((call, position) => executedResultRule(scenario, call, callKey(index, position)));
    batch.results.forEach((result, position) => {
      const key = callKey(index, position);
      if (!executed) {
        const reason = turn.stopReason === "stop" ? "unexpected-stop" : turn.stopReason;
        assert.deepEqual(result.details, { skipped: true, reason }, `call ${key} should be skipped (${reason})`);
        assert.equal(result.isError, true, `skipped call ${key} is not isError`);
        return;
      }
      assert.ok(!/\n\s+at /.test(firstTextOf(result)), `the result of ${key} carries stack text`);
      const own = rules[position];
      assert.ok(own !== undefined);
      if (own.holds(result)) return;
      // Not this call's result, but another call's of the same batch: the results were put in another order.
      const other = rules.findIndex((rule, candidate) => candidate !== position && rule.holds(result));
      if (other >= 0) {
        assert.fail(
          `result ${position + 1} after assistant ${index + 1} is ${callKey(index, other)}'s, not ${key}'s: results follow call order`,
        );
      }
      assert.fail(own.broken);
    });
  });
}

/** What the result of an executed call must be: a test, and the words for it failing. */
function executedResultRule(
  scenario: Scenario,
  call: ScriptedCall,
  key: string,
): { holds: (result: ToolResultMessage) => boolean; broken: string } {
  if (scenario.executor === "default" && call.name === "ghost") {
    return {
      holds: (result) => result.isError && firstTextOf(result).includes("not registered"),
      broken: `unknown tool ${key} not reported`,
    };
  }
  if (scenario.executor === "default" && !call.validArguments) {
    return {
      holds: (result) => result.isError && firstTextOf(result).includes("Invalid arguments"),
      broken: `invalid arguments of ${key} not reported`,
    };
  }
  if (call.outcome === "resolve") {
    return {
      holds: (result) => !result.isError && isDeepStrictEqual(result.content, [text(`output ${key}`)]),
      broken: `the result of ${key} is not its tool's output`,
    };
  }
  const expectedText = expectedFailureText(call.outcome, key);
  return {
    holds: (result) => result.isError && firstTextOf(result).includes(expectedText),
    broken: `the failure of ${key} lost "${expectedText}"`,
  };
}

const firstTextOf = (result: ToolResultMessage): string => result.content[0]?.text ?? "";

/**
 * Request k carries the system prompt, the registry's definitions and the transcript up to
 * assistant k; a failed last request, the whole transcript, every call in it already paired.
 */
function checkRequests(observation: Observation, transcript: Message[], batches: Batch[], prefix: number): void {
  const offsets = [...batches.map((batch) => batch.offset), transcript.length - prefix];
  observation.requests.forEach((request, index) => {
    const offset = offsets[index];
    assert.ok(offset !== undefined, `request ${index + 1} was made after the run had its last assistant`);
    assert.deepEqual(request.messages, transcript.slice(0, prefix + offset), `request ${index + 1} messages`);
    assert.deepEqual(request.tools, observation.definitions, `request ${index + 1} does not carry definitions()`);
    assert.equal(request.systemPrompt, observation.context.systemPrompt, `request ${index + 1} lost the system prompt`);
  });
}

/**
 * The event stream, request by request: the model's events, each forwarded once
 * in order, the assistant, then its batch (all tool_start in call order,
 * tool_progress only while its call runs, one tool_end per call, in completion
 * order) or its tool_skipped results; then one turn_end, last, agreeing with
 * the result, or, for a run that rejects, the failed request's forwarded model
 * events and nothing after them. Late progress is dropped.
 */
function checkEvents(observation: Observation, batches: Batch[]): void {
  const { events, scenario, outcome } = observation;
  let cursor = 0;
  const at = (): LoopEvent | undefined => events[cursor];
  let progressCount = 0;
  const forwardedModelEvents = (request: number) => {
    (observation.handedOut[request - 1] ?? []).forEach((event, index) => {
      const forwarded = at();
      const which = `event ${index + 1} (${event.type}) of request ${request}`;
      assert.ok(forwarded?.type === "model_event", `event ${cursor} should forward the model's ${which}`);
      assert.deepEqual(forwarded.event, event, `model_event ${cursor} is not the model's ${which}`);
      cursor += 1;
    });
  };

  batches.forEach((batch, index) => {
    forwardedModelEvents(index + 1);
    const announced = at();
    assert.ok(announced?.type === "assistant_message", `event ${cursor} should announce assistant ${index + 1}`);
    assert.equal(announced.message, batch.assistant, "assistant_message is not the appended assistant");
    cursor += 1;
    const calls = toolCallsOf(batch.assistant);
    if (calls.length === 0) return;

    if (batch.assistant.stopReason !== "toolUse") {
      for (const result of batch.results) {
        const event = at();
        assert.ok(event?.type === "tool_skipped" && event.result === result, `tool_skipped missing at ${cursor}`);
        cursor += 1;
      }
      return;
    }
    for (const call of calls) {
      const event = at();
      assert.ok(event?.type === "tool_start", `a batch's tool_start events must all come first (event ${cursor})`);
      assert.deepEqual(event.call, call, "tool_start calls follow call order");
      cursor += 1;
    }
    const open = new Map<string, number>();
    for (const call of calls) open.set(call.id, (open.get(call.id) ?? 0) + 1);
    const ended: number[] = [];
    while (ended.length < calls.length) {
      const event = at();
      if (event?.type === "tool_progress") {
        assert.ok((open.get(event.callId) ?? 0) > 0, `tool_progress for ${event.callId} outside its execution`);
        progressCount += 1;
      } else {
        assert.ok(event?.type === "tool_end", `event ${cursor} should be a tool_end or tool_progress of the batch`);
        const position = batch.results.indexOf(event.result);
        assert.ok(position >= 0 && !ended.includes(position), "a tool_end does not carry one of the batch's results");
        ended.push(position);
        open.set(event.result.toolCallId, (open.get(event.result.toolCallId) ?? 1) - 1);
      }
      cursor += 1;
    }
    const endedKeys = ended.map((position) => callKey(index, position));
    const releasedHere = observation.released.filter((key) => key.startsWith(`t${index + 1}c`));
    assert.deepEqual(
      endedKeys.filter((key) => releasedHere.includes(key)),
      releasedHere,
      "tool_end events of awaited calls do not follow their completion order",
    );
  });

  if ("result" in outcome) {
    const { result } = outcome;
    const last = at();
    assert.ok(last?.type === "turn_end", `event ${cursor} should be the run's turn_end`);
    assert.deepEqual({ reason: last.reason, steps: last.steps }, { reason: result.reason, steps: result.steps });
    const after = events.slice(cursor + 1).map((event) => event.type);
    assert.deepEqual(after, [], `events follow turn_end: ${after.join(", ")}`);
  } else {
    forwardedModelEvents(batches.length + 1);
    const after = events.slice(cursor).map((event) => event.type);
    assert.deepEqual(
      after,
      [],
      `a rejected run emitted events after the failed request's model events: ${after.join(", ")}`,
    );
  }
  const progressBeforeResult = observation.started.filter((key) => {
    const { progress } = planOf(scenario, key).call;
    return progress === "before" || progress === "both";
  }).length;
  assert.equal(progressCount, progressBeforeResult, "tool_progress events differ from the progress reported in time");
}
