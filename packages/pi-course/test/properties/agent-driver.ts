// The Agent under a generated interleaving: a model and tools that finish only when the driver
// releases them (in a generated order), and prompt/steer/followUp/abort/timer ticks in between.
import {
  type AssistantMessage,
  assistantMessage,
  type Model,
  type ModelRequest,
  type ModelStream,
  type ModelStreamOptions,
  PushModelStream,
  type ToolCall,
  ToolRegistry,
  type ToolResultMessage,
  text,
} from "@pi/core";
import { Agent, type AgentEvent } from "../../src/agent.js";
import type { ToolExecutor } from "../../src/agent-loop.js";

export type TurnPlan =
  | { kind: "tools"; calls: number }
  | { kind: "stop" }
  | { kind: "transient" } // e.g. `503 …`: retried
  | { kind: "permanent" } // e.g. `401 …`: ends the run in an error
  | { kind: "breaks" }; // the stream fails: the loop, and so the prompt, rejects

export type Op = { kind: "prompt" | "steer" | "followUp" | "abort" | "tick" } | { kind: "release"; pick: number };

export interface AgentScenario {
  turns: TurnPlan[];
  ops: Op[];
}

/** How a prompt rejects when its model breaks the protocol. */
export const PROTOCOL_BREAK = "stream broke on request";

/** Something in flight that only the driver finishes: a model request or a tool execution. */
interface Pending {
  finish: () => void;
}

function planned(plan: TurnPlan | undefined, request: number): AssistantMessage {
  switch (plan?.kind) {
    case "tools": {
      const calls: ToolCall[] = Array.from({ length: plan.calls }, (_, k) => ({
        type: "toolCall",
        id: `r${request}c${k}`,
        name: "probe",
        arguments: {},
      }));
      return assistantMessage([text(`request ${request}`), ...calls], "toolUse", request);
    }
    case "transient":
      return { ...assistantMessage([], "error", request), errorMessage: "503 Service Unavailable" };
    case "permanent":
      return { ...assistantMessage([], "error", request), errorMessage: "401 Incorrect API key provided" };
    default:
      return assistantMessage([text(`answer ${request}`)], "stop", request);
  }
}

/** Answers request n with turns[n - 1] (a plain stop past the plan), when released; "aborted" once its signal is. */
class GatedModel implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly turns: TurnPlan[],
    private readonly pending: Pending[],
  ) {}

  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
    this.requests.push(structuredClone(request));
    const number = this.requests.length;
    const stream = new PushModelStream();
    stream.push({ type: "start" });
    this.pending.push({
      finish: () => {
        if (options?.signal?.aborted) {
          stream.push({ type: "error", reason: "aborted" });
          stream.end({ ...assistantMessage([], "aborted", number), errorMessage: "Request was aborted." });
          return;
        }
        if (this.turns[number - 1]?.kind === "breaks") {
          stream.fail(new Error(`${PROTOCOL_BREAK} ${number}`));
          return;
        }
        const turn = planned(this.turns[number - 1], number);
        const reason = turn.stopReason;
        stream.push(
          reason === "stop" || reason === "toolUse" ? { type: "done", reason } : { type: "error", reason: "error" },
        );
        stream.end(turn);
      },
    });
    return stream;
  }
}

export interface DriveRecord {
  agent: Agent;
  requests: ModelRequest[];
  events: AgentEvent[];
  steered: string[];
  followedUp: string[];
  /** Per prompt call: "result" once it resolved, the error line if it rejected, undefined while pending. */
  prompts: { text: string; runningAtCall: boolean; outcome?: string }[];
}

/** Plays the scenario, then finishes everything still in flight until the Agent is idle. */
export async function drive(scenario: AgentScenario, tick: () => void): Promise<DriveRecord> {
  const pending: Pending[] = [];
  const model = new GatedModel(scenario.turns, pending);
  const executor: ToolExecutor = (call) =>
    new Promise<ToolResultMessage>((resolve) => {
      pending.push({
        finish: () =>
          resolve({
            role: "toolResult",
            toolCallId: call.id,
            toolName: call.name,
            content: [text("ok")],
            isError: false,
            timestamp: 0,
          }),
      });
    });
  const agent = new Agent({ model, tools: new ToolRegistry(), executeToolCall: executor });
  const record: DriveRecord = { agent, requests: model.requests, events: [], steered: [], followedUp: [], prompts: [] };
  agent.subscribe((event) => record.events.push(event));

  let counter = 0;
  const apply = (op: Op) => {
    counter += 1;
    switch (op.kind) {
      case "prompt": {
        const entry: DriveRecord["prompts"][number] = { text: `p${counter}`, runningAtCall: agent.state.isRunning };
        record.prompts.push(entry);
        agent.prompt(entry.text).then(
          () => {
            entry.outcome = "result";
          },
          (error: Error) => {
            entry.outcome = error.message;
          },
        );
        return;
      }
      case "steer":
        record.steered.push(`s${counter}`);
        return agent.steer(`s${counter}`);
      case "followUp":
        record.followedUp.push(`f${counter}`);
        return agent.followUp(`f${counter}`);
      case "abort":
        return agent.abort();
      case "tick":
        return tick();
      case "release": {
        const [item] = pending.splice(op.pick % Math.max(1, pending.length), 1);
        return item?.finish();
      }
    }
  };

  for (const op of scenario.ops) {
    apply(op);
    await settle();
  }
  // Wind down: finish whatever is in flight, oldest first, and fire retry timers.
  for (let guard = 0; agent.state.isRunning || pending.length > 0; guard += 1) {
    if (guard > 500) throw new Error("the Agent did not become idle");
    if (pending.length > 0) apply({ kind: "release", pick: 0 });
    else tick();
    await settle();
  }
  await settle();
  return record;
}

/** Lets queued promise jobs run: nothing in the scenario waits on a real timer. */
async function settle(): Promise<void> {
  for (let round = 0; round < 30; round += 1) await Promise.resolve();
}
