// The four ways part 1 consumes a BenchModel: the bare floor, the loop, and the loop with its own executor.
import {
  type Context,
  type Message,
  type Model,
  type ToolCall,
  ToolRegistry,
  type ToolResultMessage,
  text,
  userMessage,
} from "@pi/core";
import { Agent, runAgentLoop } from "@pi/course";
import { BENCH_TOOL, type BenchModel, readyMadeResults } from "./bench-model.js";

/**
 * bare: `for await` over the streams, appending the assistant and K ready-made results.
 * loop: runAgentLoop with the no-op tool in its registry (chapter 06's executeToolCall runs it).
 * injected: runAgentLoop with `executeToolCall` injected, building the result directly: the
 *   loop's own cost without chapter 06's lookup, schema validation and output check.
 * agent: chapter 09's Agent, one prompt on a fresh Agent over the same registry: the loop plus
 *   the steering hook, event forwarding and the Agent's bookkeeping.
 */
export type Variant = "bare" | "loop" | "injected" | "agent";
export const VARIANTS: readonly Variant[] = ["bare", "loop", "injected", "agent"];

const question = userMessage("Run the benchmark.", 0);
const context: Context = { systemPrompt: "You are a benchmark.", messages: [question] };
const output = { content: [text("ok")] };

const tools = new ToolRegistry().register({
  name: BENCH_TOOL,
  description: "Does nothing and resolves at once.",
  parameters: { type: "object", properties: { k: { type: "number" } } },
  execute: async () => output,
});

async function noopExecutor(call: ToolCall): Promise<ToolResultMessage> {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
    isError: false,
    timestamp: 0,
  };
}

async function runBare(model: BenchModel, results: ToolResultMessage[]): Promise<Message[]> {
  const messages: Message[] = [...context.messages];
  for (;;) {
    const stream = model.stream();
    for await (const _event of stream);
    const assistant = await stream.result();
    messages.push(assistant);
    if (assistant.stopReason !== "toolUse") return messages;
    messages.push(...results);
  }
}

/** Chapter 07's loop step of the "loop" variant over any Model answering like `bench` (a routed one, chapter 18). */
export async function loopOver(model: Model, bench: BenchModel): Promise<Message[]> {
  return (await runAgentLoop({ model, context, tools, maxSteps: bench.steps + 1 })).messages;
}

/** Runs `model` to its final stop with `variant` and returns the transcript. */
export async function consume(variant: Variant, model: BenchModel): Promise<Message[]> {
  const maxSteps = model.steps + 1;
  switch (variant) {
    case "bare":
      return runBare(model, readyMadeResults(model.callsPerStep));
    case "loop":
      return loopOver(model, model);
    case "injected":
      return (await runAgentLoop({ model, context, tools, maxSteps, executeToolCall: noopExecutor })).messages;
    case "agent":
      return (await new Agent({ model, tools, systemPrompt: context.systemPrompt, maxSteps }).prompt(question))
        .messages;
  }
}
