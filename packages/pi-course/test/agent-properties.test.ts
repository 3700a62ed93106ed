import assert from "node:assert/strict";
import { test } from "node:test";
import type { Message } from "@pi/core";
import fc from "fast-check";
import {
  type AgentScenario,
  type DriveRecord,
  drive,
  type Op,
  PROTOCOL_BREAK,
  type TurnPlan,
} from "./properties/agent-driver.js";
import { propertyParameters } from "./properties/loop-property.js";
import { assertPaired } from "./transcript-pairing.js";

/** Runs in `npm test` unless PI_PROPERTY_RUNS asks for another count. */
const AGENT_RUNS = 500;

const turnArbitrary: fc.Arbitrary<TurnPlan> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }).map((calls): TurnPlan => ({ kind: "tools", calls })) },
  { weight: 3, arbitrary: fc.constant<TurnPlan>({ kind: "stop" }) },
  { weight: 2, arbitrary: fc.constant<TurnPlan>({ kind: "transient" }) },
  { weight: 1, arbitrary: fc.constant<TurnPlan>({ kind: "permanent" }) },
  { weight: 1, arbitrary: fc.constant<TurnPlan>({ kind: "breaks" }) },
);

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Op>({ kind: "prompt" }) },
  { weight: 3, arbitrary: fc.constant<Op>({ kind: "steer" }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: "followUp" }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: "abort" }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: "tick" }) },
  { weight: 6, arbitrary: fc.nat(5).map((pick): Op => ({ kind: "release", pick })) },
);

const scenarioArbitrary: fc.Arbitrary<AgentScenario> = fc.record({
  turns: fc.array(turnArbitrary, { maxLength: 10 }),
  ops: fc.array(opArbitrary, { minLength: 1, maxLength: 30 }),
});

function userText(message: Message): string | undefined {
  if (message.role !== "user") return undefined;
  return typeof message.content === "string" ? message.content : message.content.map((block) => block.text).join("");
}

/** The queued messages of one kind: a prefix delivered once each in order, the rest still queued in order. */
function assertDeliveredOrQueued(transcript: string[], sent: string[], queued: string[], kind: string): void {
  const delivered = transcript.filter((entry) => sent.includes(entry));
  assert.equal(new Set(delivered).size, delivered.length, `${kind} 不会投递两次`);
  assert.deepEqual([...delivered, ...queued], sent, `${kind} 按顺序投递，未投递的按顺序留在队列中`);
}

function checkInvariants(record: DriveRecord): void {
  const { agent, requests, events } = record;
  const messages = agent.state.messages;
  assert.equal(agent.state.isRunning, false, "最后 Agent 空闲");

  for (const [index, request] of requests.entries()) assertPaired(request.messages, `第 ${index + 1} 次请求`);
  assertPaired(messages, "最终 transcript");

  const transcript = messages.map(userText).filter((entry) => entry !== undefined);
  const queued = agent.state.queued;
  assertDeliveredOrQueued(transcript, record.steered, queued.steer.map(userText) as string[], "steer");
  assertDeliveredOrQueued(transcript, record.followedUp, queued.followUp.map(userText) as string[], "followUp");

  messages.forEach((message, index) => {
    const text = userText(message);
    const before = messages[index - 1];
    if (text?.startsWith("f")) {
      assert.ok(before?.role === "assistant" && before.stopReason === "stop", `followUp ${text} 只在 stop 之后运行`);
    }
    if (text?.startsWith("s")) {
      assert.ok(
        before !== undefined && (before.role !== "assistant" || before.stopReason === "stop"),
        `steer ${text} 只在批次结果、user message 或 stop 之后进入`,
      );
    }
  });

  for (const prompt of record.prompts) {
    assert.ok(prompt.outcome !== undefined, `${prompt.text} 已经结束`);
    if (prompt.runningAtCall) assert.match(prompt.outcome, /steer\(\).*followUp\(\)/, `${prompt.text} 运行中被拒`);
    else if (prompt.outcome !== "result") {
      assert.ok(prompt.outcome.startsWith(PROTOCOL_BREAK), `${prompt.text} 只因模型违反协议而 reject`);
    }
  }
  const accepted = record.prompts.filter((prompt) => !prompt.runningAtCall).length;
  const count = (type: string) => events.filter((event) => event.type === type).length;
  assert.equal(count("agent_start"), accepted, "每个被接受的 prompt 一个 agent_start");
  assert.equal(count("agent_end"), accepted, "每个被接受的 prompt 一个 agent_end");
  const lastEnd = events.filter((event) => event.type === "agent_end").at(-1);
  assert.equal(
    agent.state.lastResult,
    lastEnd?.type === "agent_end" ? lastEnd.result : undefined,
    "lastResult 是最后一个 agent_end 的结果",
  );
}

test("性质：prompt/steer/followUp/abort 与模型、工具完成的任意交错下，调用始终配对，排队消息恰好投递一次且按顺序，或留在队列中", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const base = propertyParameters();
  const parameters = { ...base, numRuns: process.env.PI_PROPERTY_RUNS ? base.numRuns : AGENT_RUNS };
  t.diagnostic(
    `fast-check seed ${parameters.seed}, ${parameters.numRuns} runs (PI_PROPERTY_SEED / PI_PROPERTY_RUNS to change)`,
  );
  await fc.assert(
    fc.asyncProperty(scenarioArbitrary, async (scenario) => {
      checkInvariants(await drive(scenario, () => t.mock.timers.tick(60_000)));
    }),
    parameters,
  );
});
