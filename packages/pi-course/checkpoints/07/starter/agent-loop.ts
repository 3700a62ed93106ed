// Checkpoint 07 · 学习脚手架：LoopEvent、AgentRunResult、AgentLoopOptions 和 runAgentLoop() 的公共表面
// 已经声明；五段 Lab 的分支算法抛出 `Lab 7.N … 尚未实现`，留给你实现。按编号顺序（7.1 → 7.5）
// 完成 `// Lab 7.N` 注释描述的动作，删除对应的临时错误，然后只运行这一段的测试，例如：
//   npm run build -w @pi/course
//   node --test --test-name-pattern="纯文本 stop" packages/pi-course/dist/test/07-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
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

type Emit = (event: LoopEvent) => void;
type SkipReason = "length" | "error" | "aborted" | "unexpected-stop";

const DEFAULT_MAX_STEPS = 32;

const SKIPPED_TEXT: Record<SkipReason, string> = {
  length: "Tool call was not executed because the model response was truncated.",
  error: "Tool call was not executed because the model response ended with an error.",
  aborted: "Tool call was not executed because the model response was aborted.",
  "unexpected-stop": "Tool call was not executed because the model stopped without asking for tool use.",
};

export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentRunResult> {
  const maxSteps = resolveMaxSteps(options.maxSteps);
  // 调用者的 context.messages 不能修改：后续 assistant 与 tool result 只进入这份深拷贝。
  const messages = copyMessages(options.context.messages);
  const emit: Emit = (event) => options.onEvent?.(event);
  // 第 06 章的 executeToolCall 接收 (call, registry, context)；这个 adapter 已经绑定 options.tools。
  const executeToolCall: ToolExecutor =
    options.executeToolCall ?? ((call, context) => executeCoreToolCall(call, options.tools, context));

  const finish = (reason: AgentRunResult["reason"], steps: number): AgentRunResult => {
    // Lab 7.1 ④：finish() 是唯一发出 turn_end 的位置。发出 turn_end(reason, steps)，
    // 再返回 { reason, messages, steps }；每条返回路径都经过这里，避免不同分支重复结束。
    throw new Error("Lab 7.1 收集模型终态 尚未实现");
  };

  for (let steps = 1; steps <= maxSteps; steps += 1) {
    // 第 steps 次请求尚未发起；此前已经完成 steps - 1 次模型请求。
    if (options.signal?.aborted) {
      // Lab 7.5 ①：模型请求前检查 signal。预取消时以 "aborted" 结束，steps 是已经完成的请求数。
      throw new Error("Lab 7.5 处理取消与回合上限 尚未实现");
    }

    const assistant = await collectModelTurn(options, messages, emit);
    // Lab 7.1 ②：把最终 assistant 追加到局部 messages（只追加一次），并发出 assistant_message。

    const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");

    if (assistant.stopReason === "toolUse" && calls.length > 0) {
      // Lab 7.2 ③：只有 toolUse + calls 进入执行阶段。用 executeBatch() 执行这批调用，
      // 整批结束后把结果按调用顺序追加到 messages。
      throw new Error("Lab 7.2 闭合单工具往返 尚未实现");
      // Lab 7.5 ②：工具批次结束、结果已经追加之后，再检查一次 signal：已取消就以 "aborted"
      // 结束，steps 是当前请求序号（第 steps 次模型请求已经完成）。
      // Lab 7.2 ④：继续循环，让下一次模型请求看到 user、assistant 与 toolResult。
    }

    // Lab 7.1 ③：stop + 没有 calls：通过 finish() 以 "stop" 和当前 steps 结束。

    // Lab 7.3 ①–⑤：其余组合都不启动 executor（见章节的五行表）：
    //   toolUse + 没有 calls                → finish("error", steps)
    //   length / error / aborted + 任意 calls → 每个 call 追加 skippedCall(call, reason) 并发出 tool_skipped，
    //                                          再 finish(reason, steps)
    //   stop + 至少一个 call                  → 每个 call 追加 "unexpected-stop" 结果并发出 tool_skipped，
    //                                          再 finish("error", steps)
    throw new Error("Lab 7.3 处理所有非执行终态 尚未实现");
  }
  // Lab 7.5 ③：maxSteps 限制模型请求次数。循环用完仍没有结束时，以 "maxSteps" 结束；
  // 最后一批工具结果已经在 messages 里。
  throw new Error("Lab 7.5 处理取消与回合上限 尚未实现");
}

/** Streams one model turn, forwarding its events, and returns its one complete assistant. */
async function collectModelTurn(options: AgentLoopOptions, messages: Message[], emit: Emit): Promise<AssistantMessage> {
  // Lab 7.1 ①：用 systemPrompt、局部 messages 和 options.tools.definitions()（不是 context.tools）
  // 构造模型请求，并把 options.signal 交给 model.stream()。把每个事件包成 model_event 发出，
  // 流结束后从 stream.result() 取得唯一完整的 assistant 并返回。
  throw new Error("Lab 7.1 收集模型终态 尚未实现");
}

/** Starts every call of the batch at once; tool_end in completion order, results in call order. */
async function executeBatch(
  calls: ToolCall[],
  executeToolCall: ToolExecutor,
  signal: AbortSignal | undefined,
  emit: Emit,
): Promise<ToolResultMessage[]> {
  if (calls.length > 1) {
    // Lab 7.4 ①④：先为整批调用发出全部 tool_start，再用 Promise.all() 同时启动每个调用的
    // executeOne()；整批结束后按 Promise.all() 的结果顺序（即调用声明顺序）返回。
    // 写好后删除这个分支：同一段代码也处理只有一个调用的批次。
    throw new Error("Lab 7.4 隔离并发完成与单项失败 尚未实现");
  }
  // Lab 7.2 ②③：这一批只有一个调用：先发出 tool_start，再用 executeOne() 执行它，返回 [result]。
  throw new Error("Lab 7.2 闭合单工具往返 尚未实现");
}

async function executeOne(
  call: ToolCall,
  executeToolCall: ToolExecutor,
  signal: AbortSignal | undefined,
  emit: Emit,
): Promise<ToolResultMessage> {
  // Lab 7.2 ②③：把 signal 和绑定 call.id 的 reportProgress 交给 executor；
  // reportProgress(content) 发出 { type: "tool_progress", callId: call.id, content }。
  // executor 返回后立即发出这个调用自己的 tool_end，再返回结果：并发时 tool_end 因此反映完成顺序。
  // Lab 7.4 ②③：单独捕获 executor 的 rejection，用 failedExecution() 生成配对结果（同样发出 tool_end）。
  throw new Error("Lab 7.2 闭合单工具往返 尚未实现");
}

function skippedCall(call: ToolCall, reason: SkipReason): ToolResultMessage {
  // Lab 7.3 ①：返回未执行的工具结果：保留 call 的 id 与 name，content 是 SKIPPED_TEXT[reason]，
  // details 是 { skipped: true, reason }，isError 为 true。
  throw new Error("Lab 7.3 处理所有非执行终态 尚未实现");
}

function failedExecution(call: ToolCall, error: unknown): ToolResultMessage {
  // Lab 7.4 ③：executor reject 时的配对错误结果：相同的 toolCallId 与 toolName、isError 为 true，
  // 文字保留 errorMessageOf(error)（Error 的 message，其他值用 String(value)），不写入 stack。
  throw new Error("Lab 7.4 隔离并发完成与单项失败 尚未实现");
}

function resolveMaxSteps(maxSteps: number | undefined): number {
  if (maxSteps === undefined) return DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`runAgentLoop: maxSteps must be a whole number ≥ 1, got ${String(maxSteps)}`);
  }
  return maxSteps;
}

function copyMessages(messages: Message[]): Message[] {
  try {
    return structuredClone(messages);
  } catch (error) {
    throw new TypeError(
      `runAgentLoop: context.messages must be plain data that structuredClone can copy (${errorMessageOf(error)})`,
    );
  }
}
