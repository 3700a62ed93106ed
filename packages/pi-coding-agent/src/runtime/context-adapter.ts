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
  return structuredClone([...source.persisted(), ...source.queued()]);
}

/** The budget of one request: the window, less the answer's reserve and what every request carries (system prompt, tools). */
export function requestBudget(request: ModelRequest, window?: ContextWindow): ContextBudget {
  const fixed = `${request.systemPrompt ?? ""}\n${JSON.stringify(request.tools)}`;
  return {
    contextWindow: window?.tokens ?? NO_WINDOW,
    reserveTokens: window?.reserve ?? 0,
    systemPromptTokens: estimateTokens(userMessage(fixed, 0)),
  };
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
  const sent: ModelRequest = { messages: context.messages, tools: request.tools };
  if (request.systemPrompt !== undefined) sent.systemPrompt = request.systemPrompt;
  return inner.stream(sent, streamOptions);
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
