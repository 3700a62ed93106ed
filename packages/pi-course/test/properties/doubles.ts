import {
  type Model,
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
import { type ExecutionOutcome, planOf, type Scenario, scriptOf } from "./scenario.js";

/**
 * The scenario's model: a ScriptedModel (which also fails a request past the
 * script) whose turns can break in three ways, and which calls `onRequest`
 * with the request number before answering, so that a run can abort mid-turn.
 */
export class FaultyScriptedModel implements Model {
  readonly scripted: ScriptedModel;

  constructor(
    private readonly scenario: Scenario,
    private readonly onRequest: (requestNumber: number) => void,
  ) {
    this.scripted = new ScriptedModel(scriptOf(scenario));
  }

  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
    const requestNumber = this.scripted.requests.length + 1;
    this.onRequest(requestNumber);
    const inner = this.scripted.stream(request, options);
    const fault = this.scenario.turns[requestNumber - 1]?.fault ?? "none";
    if (fault === "stream-throws") throw new Error(`model refused request ${requestNumber}`);
    if (fault === "iteration-throws") {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const event of inner) {
            yield event;
            throw new Error(`stream broke during request ${requestNumber}`);
          }
        },
        result: () => inner.result(),
      };
    }
    if (fault === "result-rejects") {
      return {
        [Symbol.asyncIterator]: () => inner[Symbol.asyncIterator](),
        result: () => Promise.reject(new Error(`no final message for request ${requestNumber}`)),
      };
    }
    return inner;
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
