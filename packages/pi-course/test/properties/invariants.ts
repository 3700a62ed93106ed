import assert from "node:assert/strict";
import { type AssistantMessage, type Message, type ToolResultMessage, toolCallsOf } from "@pi/core";
import type { AgentRunResult, LoopEvent } from "../../src/agent-loop.js";
import { expectedFailureText } from "./doubles.js";
import { expectedEnding } from "./oracle.js";
import type { Observation } from "./run-scenario.js";
import { planOf, type Scenario, scriptOf } from "./scenario.js";

/**
 * Every invariant the chapter and the contract state, checked on one observed
 * run. Each failure names the rule it saw broken; fast-check adds the seed and
 * the shrunk scenario.
 */
export function checkInvariants(observation: Observation): void {
  const { scenario, outcome } = observation;
  assert.ok(!("hung" in outcome), "the loop stopped: it waits on nothing the test controls and never settled");
  if ("error" in outcome) assert.fail(`the run rejected instead of ending with a reason: ${String(outcome.error)}`);
  const result = outcome.result;

  assert.deepEqual(observation.context, observation.contextBefore, "the caller's context changed");
  const prefix = observation.context.messages.length;
  assert.deepEqual(result.messages.slice(0, prefix), observation.contextBefore.messages, "the context's messages lost");
  for (let index = 0; index < prefix; index += 1) {
    assert.notEqual(result.messages[index], observation.context.messages[index], "a returned message is the caller's");
  }

  const expected = expectedEnding(scenario);
  const ending = (reason: string, steps: number) => `${reason} after ${steps} step(s)`;
  assert.equal(
    ending(result.reason, result.steps),
    ending(expected.reason, expected.steps),
    `the run ended ${ending(result.reason, result.steps)}; the chapter's table, abort checks and maxSteps prescribe ${ending(expected.reason, expected.steps)}`,
  );
  assert.ok(result.steps <= scenario.maxSteps, "steps exceed maxSteps");
  assert.equal(observation.requests.length, result.steps, "model requests differ from steps");
  assert.equal(
    observation.started.length,
    expected.executions,
    `${observation.started.length} tool execution(s) (${observation.started.join(", ")}); the script allows ${expected.executions}`,
  );
  for (const key of observation.started) {
    const { turn } = planOf(scenario, key);
    assert.ok(turn.stopReason === "toolUse", `the call ${key} of a ${turn.stopReason} turn was executed`);
  }

  const batches = transcriptBatches(result.messages.slice(prefix));
  assert.equal(batches.length, result.steps, "each model request appends exactly one assistant");
  checkAssistants(scenario, batches);
  checkRequests(observation, result, batches, prefix);
  checkEvents(observation, result, batches);
}

interface Batch {
  assistant: AssistantMessage;
  /** The results right after it, paired in call order. */
  results: ToolResultMessage[];
  /** Where the assistant sits in the returned messages, counted after the context's own. */
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

/** Each assistant is its scripted turn, or an empty error/aborted one for a failed request; results are right. */
function checkAssistants(scenario: Scenario, batches: Batch[]): void {
  const script = scriptOf(scenario);
  batches.forEach((batch, index) => {
    const turn = scenario.turns[index];
    const scripted = script[index];
    if (turn === undefined || scripted === undefined || turn.fault !== "none") {
      assert.deepEqual(batch.assistant.content, [], `the failed request ${index + 1} left content in the transcript`);
      assert.ok(["error", "aborted"].includes(batch.assistant.stopReason), "a failed request is not error/aborted");
      assert.ok(batch.assistant.errorMessage, `the failed request ${index + 1} has no errorMessage`);
      return;
    }
    assert.deepEqual(batch.assistant, scripted, `assistant ${index + 1} is not the model's final message`);
    const executed = turn.stopReason === "toolUse";
    batch.results.forEach((result, position) => {
      const call = turn.calls[position];
      assert.ok(call !== undefined);
      const key = `t${index + 1}c${position + 1}`;
      if (!executed) {
        const reason = turn.stopReason === "stop" ? "unexpected-stop" : turn.stopReason;
        assert.deepEqual(result.details, { skipped: true, reason }, `call ${key} should be skipped (${reason})`);
        assert.equal(result.isError, true, `skipped call ${key} is not isError`);
        return;
      }
      const firstText = result.content[0]?.text ?? "";
      assert.ok(!/\n\s+at /.test(firstText), `the result of ${key} carries stack text`);
      if (scenario.executor === "default" && call.name === "ghost") {
        assert.ok(result.isError && firstText.includes("not registered"), `unknown tool ${key} not reported`);
      } else if (scenario.executor === "default" && !call.validArguments) {
        assert.ok(
          result.isError && firstText.includes("Invalid arguments"),
          `invalid arguments of ${key} not reported`,
        );
      } else if (call.outcome === "resolve") {
        assert.deepEqual(
          { isError: result.isError, content: result.content },
          { isError: false, content: [{ type: "text", text: `output ${key}` }] },
          `the result of ${key} is not its tool's output`,
        );
      } else {
        const expectedText = expectedFailureText(call.outcome, key);
        assert.ok(result.isError && firstText.includes(expectedText), `the failure of ${key} lost "${expectedText}"`);
      }
    });
  });
}

/** Request k carries the system prompt, the registry's definitions and the transcript up to assistant k. */
function checkRequests(observation: Observation, result: AgentRunResult, batches: Batch[], prefix: number): void {
  observation.requests.forEach((request, index) => {
    const batch = batches[index];
    assert.ok(batch !== undefined);
    assert.deepEqual(
      request.messages,
      result.messages.slice(0, prefix + batch.offset),
      `request ${index + 1} messages`,
    );
    assert.deepEqual(request.tools, observation.definitions, `request ${index + 1} does not carry definitions()`);
    assert.equal(request.systemPrompt, observation.context.systemPrompt, `request ${index + 1} lost the system prompt`);
  });
}

/**
 * The event stream, request by request: model events, the assistant, then its
 * batch (all tool_start in call order, tool_progress only while its call runs,
 * one tool_end per call, in completion order) or its tool_skipped results,
 * and one turn_end, last, agreeing with the result. Late progress is dropped.
 */
function checkEvents(observation: Observation, result: AgentRunResult, batches: Batch[]): void {
  const { events, scenario } = observation;
  let cursor = 0;
  const at = (): LoopEvent | undefined => events[cursor];
  let progressCount = 0;

  batches.forEach((batch, index) => {
    while (at()?.type === "model_event") cursor += 1;
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
    const endedKeys = ended.map((position) => `t${index + 1}c${position + 1}`);
    const releasedHere = observation.released.filter((key) => key.startsWith(`t${index + 1}c`));
    assert.deepEqual(
      endedKeys.filter((key) => releasedHere.includes(key)),
      releasedHere,
      "tool_end events of awaited calls do not follow their completion order",
    );
  });

  const last = at();
  assert.ok(last?.type === "turn_end", `event ${cursor} should be the run's turn_end`);
  assert.deepEqual({ reason: last.reason, steps: last.steps }, { reason: result.reason, steps: result.steps });
  assert.equal(cursor, events.length - 1, "events follow turn_end, or a second turn_end was emitted");
  const progressBeforeResult = observation.started.filter((key) => {
    const { progress } = planOf(scenario, key).call;
    return progress === "before" || progress === "both";
  }).length;
  assert.equal(progressCount, progressBeforeResult, "tool_progress events differ from the progress reported in time");
}
