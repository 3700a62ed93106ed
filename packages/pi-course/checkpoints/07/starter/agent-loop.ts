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
  assertCloneable(options.context.messages);
  const messages = structuredClone(options.context.messages);
  // 第 06 章的 executeToolCall 在本文件中叫 executeCoreToolCall，接收 (call, registry, context)；
  // 这个 adapter 已经绑定 options.tools，所以调用处只传 call 与 context。
  const executeToolCall: ToolExecutor =
    options.executeToolCall ?? ((call, context) => executeCoreToolCall(call, options.tools, context));

  const finish = (reason: AgentRunResult["reason"], steps: number): AgentRunResult => {
    // Lab 7.1 ④：finish() 是唯一发出 turn_end 的位置：emit(options, { type: "turn_end", reason, steps })，
    // 再返回 { reason, messages, steps }。每条返回路径都经过这里，避免不同分支重复结束。
    throw new Error("Lab 7.1 收集模型终态 尚未实现");
  };

  const executeOne = async (call: ToolCall): Promise<ToolResultMessage> => {
    // Lab 7.2 ②：return await executeToolCall(call, { signal: options.signal, reportProgress })，
    // 其中 reportProgress: (content) => { emit(options, { type: "tool_progress", callId: call.id, content }); }
    // 把进度绑定到这个 call 的 id（章节“call-1 的结果进入第二次模型请求”中的代码，readCall 换成 call）。
    // tool_end 不在这里发出：由调用 executeOne(call) 的地方发出（单个调用见下面的 ③；整批时在批次的 async 函数里）。
    // 照这里写 async 与 return await 就能通过聚焦测试。target 的 executeOne 多做一件事，写法因此不同：
    // 工具在结果返回之后才报告的进度会被丢弃。它不写 async，直接返回 executeToolCall 的 Promise，
    // 再用 result.then(stop, stop) 在结果出来时（成功或失败）关掉进度；这样每个调用少包一层 async 函数。
    // checkpoint 07 --lab 7.2 的 diff 里这一段与你的不同，是这个原因。
    throw new Error("Lab 7.2 闭合单工具往返 尚未实现");
  };

  for (let steps = 1; steps <= maxSteps; steps += 1) {
    // 第 steps 次请求尚未发起；此前已经完成 steps - 1 次模型请求。
    if (options.signal?.aborted) {
      // Lab 7.5 ①：预取消：return finish("aborted", steps - 1)（已经完成的请求数，第一次循环时是 0）。
      throw new Error("Lab 7.5 处理取消与回合上限 尚未实现");
    }

    const assistant = await collectModelTurn(options, messages);
    // Lab 7.1 ②：messages.push(assistant)（每条 assistant 只追加一次），
    // 再 emit(options, { type: "assistant_message", message: assistant })。

    const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");

    if (assistant.stopReason === "toolUse" && calls.length > 0) {
      if (calls.length > 1) {
        // Lab 7.4 ①–④：删除这个 `if (calls.length > 1)` 分支（连同它的临时错误），并把下面 Lab 7.2 ③ 的
        // 单调用代码换成整批执行：先 for (const call of calls) 发出全部 tool_start，再写章节的
        //   const results = await Promise.all(
        //     calls.map(async (call) => {
        //       const result = await executeOne(call);
        //       emit(options, { type: "tool_end", result });
        //       return result;
        //     }),
        //   );
        // 在这个 async 函数里用 try/catch 包住 executeOne(call)：catch (error) 时用 failedExecution(call, error)
        // 生成配对结果，同样发出 tool_end 并返回它。最后 messages.push(...results)（Promise.all 的顺序即调用顺序）。
        throw new Error("Lab 7.4 隔离并发完成与单项失败 尚未实现");
      }
      // Lab 7.2 ③：这一批只有一个调用。先发出 tool_start，再 const result = await executeOne(call)，
      // 发出 emit(options, { type: "tool_end", result })，然后 messages.push(result)。
      // 注意：calls[0] 的类型是 ToolCall | undefined（tsconfig 开了 noUncheckedIndexedAccess），
      // 直接传给 executeOne 会编译失败；用 for (const call of calls) { … } 遍历即可。
      throw new Error("Lab 7.2 闭合单工具往返 尚未实现");
      // Lab 7.5 ②：工具结果已经追加之后，再检查一次 signal：if (options.signal?.aborted) return finish("aborted", steps)
      // （第 steps 次模型请求已经完成）。这个检查在 continue 之前，所以先于 maxSteps。
      // Lab 7.2 ④：continue，让下一次模型请求看到 user、assistant 与 toolResult。
    }

    // Lab 7.1 ③：stop + 没有 calls：if (assistant.stopReason === "stop" && calls.length === 0) return finish("stop", steps)。

    // Lab 7.3 ②–⑤：其余组合都不启动 executor（见章节的五行表）：
    //   toolUse + 没有 calls                → return finish("error", steps)
    //   length / error / aborted + 任意 calls → 每个 call：const result = skippedCall(call, reason)，
    //                                          messages.push(result)，emit(options, { type: "tool_skipped", result })；
    //                                          再 return finish(reason, steps)
    //   stop + 至少一个 call                  → 同上，reason 用 "unexpected-stop"，再 return finish("error", steps)
    throw new Error("Lab 7.3 处理所有非执行终态 尚未实现");
  }
  // Lab 7.5 ③：循环用完仍没有结束：return finish("maxSteps", maxSteps)。循环变量 steps 在这里已经不在作用域内，
  // 已完成的模型请求数正好是 maxSteps；最后一批工具结果已经在 messages 里。
  throw new Error("Lab 7.5 处理取消与回合上限 尚未实现");
}

function emit(options: AgentLoopOptions, event: LoopEvent): void {
  options.onEvent?.(event);
}

/** Streams one model turn, forwarding its events, and returns its one complete assistant. */
async function collectModelTurn(options: AgentLoopOptions, messages: Message[]): Promise<AssistantMessage> {
  // Lab 7.1 ①：const stream = options.model.stream(
  //   { systemPrompt: options.context.systemPrompt, messages, tools: options.tools.definitions() },
  //   { signal: options.signal },
  // )（tools 用 Registry 的 definitions()，不是 context.tools）。
  // for await (const event of stream) { emit(options, { type: "model_event", event }); }
  // 流结束后 return stream.result()：唯一完整的 assistant。
  throw new Error("Lab 7.1 收集模型终态 尚未实现");
}

function skippedCall(call: ToolCall, reason: SkipReason): ToolResultMessage {
  // Lab 7.3 ①：返回未执行的工具结果（章节 length 一节的对象）：role "toolResult"、toolCallId: call.id、
  // toolName: call.name、content: [text(SKIPPED_TEXT[reason])]、details: { skipped: true, reason }、isError: true。
  // 章节的对象里没有 timestamp，但 ToolResultMessage 要求它：加上 timestamp: Date.now()，否则 TS2741。
  throw new Error("Lab 7.3 处理所有非执行终态 尚未实现");
}

function failedExecution(call: ToolCall, error: unknown): ToolResultMessage {
  // Lab 7.4 ③：executor reject 时的配对错误结果：相同的 toolCallId 与 toolName、isError: true、
  // content: [text(`Tool execution failed: ${errorMessageOf(error)}`)]（Error 的 message，其他值用 String(value)，
  // 不写入 stack）、timestamp: Date.now()。
  throw new Error("Lab 7.4 隔离并发完成与单项失败 尚未实现");
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
