// Checkpoint 13 · 学习脚手架：AdapterOptions、fitRequest()（预算 → buildContext → 需要时压缩）与把内层流转发出来的
// forward() 已经写好。Lab 13.2 的三处先抛出“尚未实现”的临时错误。按 ① → ③ 完成 `// Lab 13.2` 注释描述的动作，
// 删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="上下文适配器" packages/pi-coding-agent/dist/test/13-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// The context adapter: a Model in front of the real one. The Agent keeps only what it ran since
// the Runtime opened; the request the real model gets is built from the Runtime's active path
// instead: what is persisted (restored history, then each entry once written), with the suffix
// still queued for the disk attached for this request only, cut to the window by chapter 11's
// buildContext: whole recent interactions, after the fixed costs (system prompt, tool schemas,
// the answer's reserve) are taken off. The tools and the signal pass through; the messages are
// fresh copies, so the real model can neither see nor change the Runtime's own arrays.
import {
  assistantMessage,
  type Model,
  type ModelRequest,
  type ModelStream,
  type ModelStreamOptions,
  PushModelStream,
  userMessage,
} from "@pi/core";
import { type BuiltContext, buildContext, type ContextBudget, estimateTokens } from "../compaction/index.js";
import type { SessionEntry } from "../session/entries.js";
import type { CompactHook, CompactionTarget, ContextSource, ContextWindow, RuntimeCode } from "./types.js";

export interface AdapterOptions {
  window?: ContextWindow;
  compact?: CompactHook;
  buildContext?: RuntimeCode["buildContext"];
}

/** Without a known window nothing is dropped: the path is still projected through its compactions. */
const NO_WINDOW = Number.MAX_SAFE_INTEGER;

/** The active path for one request: persisted entries, then the queued ones, as a fresh deep copy. */
export function activePath(source: ContextSource): SessionEntry[] {
  // Lab 13.2 ①：已持久化的在前，排队中的在后，拼成一个新数组再 structuredClone()：后缀只属于这一次请求，
  // 不能 push 进 source 的任何一个数组，也不能把 Runtime 自己的条目对象交出去。
  throw new Error("Lab 13.2 上下文适配器 尚未实现");
}

/** The budget of one request: the window, less the answer's reserve and what every request carries (system prompt, tools). */
export function requestBudget(request: ModelRequest, window?: ContextWindow): ContextBudget {
  // Lab 13.2 ②：每次请求都带着的固定成本是系统提示和工具的 schema：把
  // `${request.systemPrompt ?? ""}\n${JSON.stringify(request.tools)}` 当作一条 userMessage(fixed, 0) 用 estimateTokens() 估算，
  // 作为 systemPromptTokens；contextWindow 是 window?.tokens ?? NO_WINDOW，reserveTokens 是 window?.reserve ?? 0。
  // 安全余量不用给：第 11 章的 historyBudget() 有默认值。
  throw new Error("Lab 13.2 上下文适配器 尚未实现");
}

/** The context `request` is sent with: the active path within its budget (compacted first when a hook is given). */
export async function fitRequest(
  request: ModelRequest,
  target: CompactionTarget,
  options: AdapterOptions,
  signal?: AbortSignal,
): Promise<BuiltContext> {
  const build = options.buildContext ?? buildContext;
  const budget = requestBudget(request, options.window);
  const context = build(activePath(target), budget);
  if (context.dropped.length === 0 || options.compact === undefined) return context;
  return options.compact(context, budget, target, signal);
}

export function contextAdapter(inner: Model, target: CompactionTarget, options: AdapterOptions = {}): Model {
  return {
    stream(request, streamOptions) {
      const out = new PushModelStream();
      void (async () => {
        let context: BuiltContext;
        try {
          context = await fitRequest(request, target, options, streamOptions?.signal);
        } catch (error) {
          // A path that cannot be projected, or a compaction that failed: this request fails, the loop goes on.
          const line = String((error as Error)?.message ?? error).split("\n")[0] as string;
          const reason = streamOptions?.signal?.aborted ? "aborted" : "error";
          out.push({ type: "error", reason, message: line });
          out.end({ ...assistantMessage([], reason), errorMessage: line });
          return;
        }
        await forward(() => innerStream(inner, request, context, streamOptions), out);
      })();
      return out;
    },
  };
}

/** The real model's stream for `request`, sent with `context`'s messages: the tools and the options as given. */
function innerStream(
  inner: Model,
  request: ModelRequest,
  context: BuiltContext,
  streamOptions: ModelStreamOptions | undefined,
): ModelStream {
  // Lab 13.2 ③：发给内层模型的请求是 { messages: context.messages, tools: request.tools }，request 有 systemPrompt
  // 时带上它；streamOptions 原样传过去：它带着中止信号。不要把 request.messages（Agent 的记录）发出去：
  // 恢复的历史只在活动路径里，context.messages 是 buildContext() 给的副本。
  throw new Error("Lab 13.2 上下文适配器 尚未实现");
}

async function forward(open: () => ModelStream, out: PushModelStream): Promise<void> {
  try {
    const stream = open();
    for await (const event of stream) out.push(event);
    out.end(await stream.result());
  } catch (error) {
    out.fail(error);
  }
}
