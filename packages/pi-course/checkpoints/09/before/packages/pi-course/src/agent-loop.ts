import {
  type AssistantMessage,
  type Context,
  errorMessageOf,
  executeToolCall as executeCoreToolCall,
  type Message,
  type Model,
  type ModelEvent,
  type TextContent,
  type ToolCall,
  type ToolExecutionContext,
  type ToolRegistry,
  type ToolResultMessage,
  text,
} from "@pi/core";

export type ToolExecutor = (call: ToolCall, context: ToolExecutionContext) => Promise<ToolResultMessage>;

export interface AgentLoopOptions {
  model: Model;
  /** Owned by the caller: never mutated. */
  context: Context;
  /** Its definitions() go into every request; context.tools is ignored. */
  tools: ToolRegistry;
  signal?: AbortSignal;
  /** Model requests allowed; default 32. */
  maxSteps?: number;
  /** Default: chapter 06's executeToolCall bound to `tools`. */
  executeToolCall?: ToolExecutor;
  onEvent?: (event: LoopEvent) => void;
}

export type LoopEvent =
  | { type: "model_event"; event: ModelEvent }
  | { type: "assistant_message"; message: AssistantMessage }
  | { type: "tool_start"; call: ToolCall }
  | { type: "tool_progress"; callId: string; content: TextContent[] }
  | { type: "tool_end"; result: ToolResultMessage }
  | { type: "tool_skipped"; result: ToolResultMessage }
  | { type: "turn_end"; reason: AgentRunResult["reason"]; steps: number };

export interface AgentRunResult {
  reason: "stop" | "length" | "error" | "aborted" | "maxSteps";
  messages: Message[];
  steps: number;
}

type SkipReason = "length" | "error" | "aborted" | "unexpected-stop";

const DEFAULT_MAX_STEPS = 32;

const SKIPPED_TEXT: Record<SkipReason, string> = {
  length: "Tool call was not executed because the model response was truncated.",
  error: "Tool call was not executed because the model response ended with an error.",
  aborted: "Tool call was not executed because the model response was aborted.",
  "unexpected-stop": "Tool call was not executed because the model stopped without asking for tool use.",
};

/**
 * Runs one agent turn: asks the model, executes the tool calls of each `toolUse`
 * answer, feeds the paired results back, and ends through `finish()`, the only
 * place that emits `turn_end`. Names and shapes follow the chapter's code.
 *
 * Failure semantics:
 * - Invalid input rejects before any event: `maxSteps` that is not a whole
 *   number ≥ 1 (RangeError), or context messages `structuredClone` cannot copy
 *   (TypeError).
 * - A model reports its own failures inside the protocol: an `error` event and
 *   an assistant with `stopReason` "error" or "aborted", which the chapter's
 *   table of terminal states handles (a request past a ScriptedModel's script
 *   is one: an "error" naming the request). A model that breaks the protocol
 *   instead (`stream()` throws, its iteration throws, or `result()` rejects)
 *   rejects the run with that error and no `turn_end`. The caller's context is
 *   untouched, and every call already in the transcript was paired before that
 *   request began.
 * - A tool failure never ends the run: an executor that rejects or throws gets
 *   a paired `isError` result with the message only, never the stack.
 * - Progress a tool reports after its result is in is dropped.
 * - An `onEvent` listener that throws rejects the run: listeners must not throw.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentRunResult> {
  const maxSteps = resolveMaxSteps(options.maxSteps);
  assertCloneable(options.context.messages);
  const messages = structuredClone(options.context.messages);
  const executeToolCall: ToolExecutor =
    options.executeToolCall ?? ((call, context) => executeCoreToolCall(call, options.tools, context));

  const finish = (reason: AgentRunResult["reason"], steps: number): AgentRunResult => {
    emit(options, { type: "turn_end", reason, steps });
    return { reason, messages, steps };
  };

  const executeOne = (call: ToolCall): Promise<ToolResultMessage> => {
    // Progress a tool reports after its result is in is dropped. The result is watched on the side,
    // not awaited in an async wrapper: that would add a second async step to every call.
    let running = true;
    const stop = () => {
      running = false;
    };
    try {
      const result = executeToolCall(call, {
        signal: options.signal,
        reportProgress: (content) => {
          if (running) emit(options, { type: "tool_progress", callId: call.id, content });
        },
      });
      result.then(stop, stop);
      return result;
    } catch (error) {
      stop(); // an executor that throws before returning its promise
      throw error;
    }
  };

  for (let steps = 1; steps <= maxSteps; steps += 1) {
    // Request `steps` has not started; steps - 1 requests are complete.
    if (options.signal?.aborted) {
      return finish("aborted", steps - 1);
    }

    const assistant = await collectModelTurn(options, messages);
    messages.push(assistant);
    emit(options, { type: "assistant_message", message: assistant });
    const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");

    if (assistant.stopReason === "toolUse" && calls.length > 0) {
      for (const call of calls) emit(options, { type: "tool_start", call });
      const results = await Promise.all(
        calls.map(async (call) => {
          try {
            const result = await executeOne(call);
            emit(options, { type: "tool_end", result });
            return result;
          } catch (error) {
            const result = failedExecution(call, error);
            emit(options, { type: "tool_end", result });
            return result;
          }
        }),
      );
      messages.push(...results);
      if (options.signal?.aborted) return finish("aborted", steps);
      continue;
    }
    if (assistant.stopReason === "toolUse") return finish("error", steps);
    if (assistant.stopReason === "stop" && calls.length === 0) return finish("stop", steps);

    const skipReason = assistant.stopReason === "stop" ? "unexpected-stop" : assistant.stopReason;
    for (const call of calls) {
      const result = skippedCall(call, skipReason);
      messages.push(result);
      emit(options, { type: "tool_skipped", result });
    }
    return finish(skipReason === "unexpected-stop" ? "error" : skipReason, steps);
  }
  return finish("maxSteps", maxSteps);
}

function emit(options: AgentLoopOptions, event: LoopEvent): void {
  options.onEvent?.(event);
}

/** Streams one model turn, forwarding its events, and returns its one complete assistant. */
async function collectModelTurn(options: AgentLoopOptions, messages: Message[]): Promise<AssistantMessage> {
  const stream = options.model.stream(
    {
      systemPrompt: options.context.systemPrompt,
      messages,
      tools: options.tools.definitions(),
    },
    { signal: options.signal },
  );
  for await (const event of stream) {
    emit(options, { type: "model_event", event });
  }
  return stream.result();
}

function skippedCall(call: ToolCall, reason: SkipReason): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [text(SKIPPED_TEXT[reason])],
    details: { skipped: true, reason },
    isError: true,
    timestamp: Date.now(),
  };
}

function failedExecution(call: ToolCall, error: unknown): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [text(`Tool execution failed: ${errorMessageOf(error)}`)],
    isError: true,
    timestamp: Date.now(),
  };
}

function resolveMaxSteps(maxSteps: number | undefined): number {
  if (maxSteps === undefined) return DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`runAgentLoop: maxSteps must be a whole number ≥ 1, got ${String(maxSteps)}`);
  }
  return maxSteps;
}

/** A clear TypeError, before any event, for context messages that are not plain data. */
function assertCloneable(messages: Message[]): void {
  try {
    structuredClone(messages);
  } catch (error) {
    throw new TypeError(
      `runAgentLoop: context.messages must be plain data that structuredClone can copy (${errorMessageOf(error)})`,
    );
  }
}
