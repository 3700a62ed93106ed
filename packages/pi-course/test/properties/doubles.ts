import {
  type Message,
  type Model,
  type ModelEvent,
  type ModelRequest,
  type ModelStream,
  type ModelStreamOptions,
  ScriptedModel,
  type TextContent,
  type ToolExecutionContext,
  type ToolOutput,
  ToolRegistry,
  type ToolResultMessage,
  text,
} from "@pi/core";
import type { ToolExecutor } from "../../src/agent-loop.js";
import { type ExecutionOutcome, type ModelFault, planOf, type Scenario, scriptOf } from "./scenario.js";

/** Why the model broke the protocol on a request: its turn's fault. */
export type ModelFailureCause = Exclude<ModelFault, "none">;

export interface ModelFailure {
  request: number;
  cause: ModelFailureCause;
  /** The very value the model threw or rejected with: the loop must reject the run with it. */
  error: unknown;
}

/**
 * The scenario's model: a ScriptedModel (whose request past the script ends in
 * an `error` terminal) whose turns can break the protocol in three ways. It calls
 * `onRequest` with the request number once the ScriptedModel has its turn under
 * way, so that a run can abort mid-turn, and records what each request saw and
 * was given.
 */
export class FaultyScriptedModel implements Model {
  readonly scripted: ScriptedModel;
  /** Per request, the messages the loop passed: the same objects, in a copy of the array taken then. */
  readonly requestMessages: Message[][] = [];
  /** Per request, the events this model handed out, in order. */
  readonly handedOut: ModelEvent[][] = [];
  readonly failures: ModelFailure[] = [];

  constructor(
    private readonly scenario: Scenario,
    private readonly onRequest: (requestNumber: number) => void,
  ) {
    this.scripted = new ScriptedModel(scriptOf(scenario));
  }

  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
    const requestNumber = this.scripted.requests.length + 1;
    this.requestMessages.push(request.messages.slice());
    const handedOut: ModelEvent[] = [];
    this.handedOut.push(handedOut);
    const failure = (cause: ModelFailureCause, error: unknown): unknown => {
      this.failures.push({ request: requestNumber, cause, error });
      return error;
    };

    const inner = this.scripted.stream(request, options);
    // After the ScriptedModel started the turn: an abort here is one mid-turn, not a pre-aborted request.
    this.onRequest(requestNumber);
    const fault = this.scenario.turns[requestNumber - 1]?.fault ?? "none";
    if (fault === "stream-throws") throw failure(fault, new Error(`model refused request ${requestNumber}`));
    return {
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) {
          handedOut.push(event);
          yield event;
          if (fault === "iteration-throws")
            throw failure(fault, new Error(`stream broke during request ${requestNumber}`));
        }
      },
      result: () =>
        fault === "result-rejects"
          ? Promise.reject(failure(fault, new Error(`no final message for request ${requestNumber}`)))
          : inner.result(),
    };
  }
}

interface Running {
  key: string;
  rank: number;
  startOrder: number;
  settle: () => void;
  lateProgress: (() => void) | undefined;
}

/**
 * Tool executions under the test's control: each one waits on its own deferred
 * until `releaseNext()` settles it (lowest rank first), so completion orders
 * are generated, never timed. Reports progress before and/or after its result.
 */
export class ControlledTools {
  /** Keys of the executions, in the order they started. */
  readonly started: string[] = [];
  /** Keys of the executions, in the order the test settled them. */
  readonly released: string[] = [];
  readonly registry = new ToolRegistry();
  private readonly running: Running[] = [];
  private lateReports: (() => void)[] = [];

  constructor(
    private readonly scenario: Scenario,
    private readonly onExecution: (executionNumber: number) => void,
  ) {
    this.registry.register({
      name: "probe",
      description: "A tool whose completion the test controls.",
      parameters: {
        type: "object",
        properties: { note: { type: "string" } },
        required: ["note"],
        additionalProperties: false,
      },
      execute: (args, context) => this.start(String(args.note), context),
    });
  }

  /** options.executeToolCall for the "injected" executor; throws synchronously for `throw-sync`. */
  readonly executor: ToolExecutor = (call, context) => {
    const output = this.start(String(call.arguments.note), context);
    return output.then(
      (value): ToolResultMessage => ({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: value.content,
        isError: false,
        timestamp: 5,
      }),
    );
  };

  /** Settles the waiting execution that should complete next; false when none is waiting. */
  releaseNext(): boolean {
    const next = this.running
      .slice()
      .sort((a, b) => a.rank - b.rank || a.startOrder - b.startOrder)
      .at(0);
    if (next === undefined) return false;
    this.running.splice(this.running.indexOf(next), 1);
    this.released.push(next.key);
    next.settle();
    if (next.lateProgress) this.lateReports.push(next.lateProgress);
    return true;
  }

  /** Reports the progress due after a result; the loop must drop it. */
  reportLateProgress(): void {
    const reports = this.lateReports;
    this.lateReports = [];
    for (const report of reports) report();
  }

  private start(key: string, context: ToolExecutionContext): Promise<ToolOutput> {
    this.started.push(key);
    this.onExecution(this.started.length);
    const { call } = planOf(this.scenario, key);
    const progress: TextContent[] = [text(`progress ${key}`)];
    if (call.progress === "before" || call.progress === "both") context.reportProgress?.(progress);
    if (call.outcome === "throw-sync") throw new Error(`sync failure ${key}`);

    let resolve!: (output: ToolOutput) => void;
    let reject!: (reason: unknown) => void;
    const output = new Promise<ToolOutput>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const settle = () => {
      if (call.outcome === "resolve") resolve({ content: [text(`output ${key}`)] });
      else if (call.outcome === "reject-error") reject(new Error(`tool failed ${key}`));
      else if (call.outcome === "reject-string") reject(`refused ${key}`);
      else reject(undefined);
    };
    const late = call.progress === "after" || call.progress === "both";
    this.running.push({
      key,
      rank: call.rank,
      startOrder: this.started.length,
      settle,
      lateProgress: late ? () => context.reportProgress?.([text(`late progress ${key}`)]) : undefined,
    });
    return output;
  }
}

/** The text a paired result for a failed execution must contain. */
export function expectedFailureText(outcome: Exclude<ExecutionOutcome, "resolve">, key: string): string {
  switch (outcome) {
    case "reject-error":
      return `tool failed ${key}`;
    case "reject-string":
      return `refused ${key}`;
    case "reject-undefined":
      return "undefined";
    case "throw-sync":
      return `sync failure ${key}`;
  }
}
