// Chat Completions chunks → chapter 07's ModelEvents and the turn's one assistant.
import type { AssistantMessage, ModelEvent, TextContent, ToolCall } from "@pi/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { mapFinishReason } from "./finish-reason.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";

/** How the transport ended: it read the stream to its end, the signal aborted it, or it failed. */
export type StreamEnd = { kind: "complete" } | { kind: "aborted" } | { kind: "failed"; message: string };

const ABORTED_MESSAGE = "aborted: the request was cancelled";

/**
 * Text fragments become `text_delta`s and argument fragments `toolcall_delta`s as they arrive. Calls
 * are complete once `finish_reason` arrives: then each gets its `toolcall_end`. The usage chunk may
 * follow, so the terminal event waits for the end of the stream (`finish`).
 */
export class ChunkMapper {
  private text = "";
  private readonly assembler = new ToolCallAssembler();
  private finishReason: string | undefined;
  private calls: ToolCall[] = [];
  private callProblem: string | undefined;
  private usage: AssistantMessage["usage"];

  constructor(private readonly emit: (event: ModelEvent) => void) {}

  accept(chunk: ChatCompletionChunk): void {
    const usage = chunk.usage;
    if (usage) this.usage = { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 };
    const choice = chunk.choices?.[0];
    if (choice === undefined || this.finishReason !== undefined) return;
    const delta = choice.delta;
    if (delta) {
      // Servers send "" or null fragments; reasoning_content is ignored: it stays out of the answer.
      const content = delta.content;
      if (typeof content === "string" && content !== "") {
        this.text += content;
        this.emit({ type: "text_delta", delta: content });
      }
      const fragments = delta.tool_calls;
      if (fragments) {
        for (const fragment of fragments) {
          const piece = this.assembler.accept(fragment);
          if (piece !== "") this.emit({ type: "toolcall_delta", delta: piece });
        }
      }
    }
    // The finishing chunk may still carry a last fragment (vLLM does), so it is read first.
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      const { calls, problem } = this.assembler.finish();
      this.calls = calls;
      this.callProblem = problem;
      for (const toolCall of calls) this.emit({ type: "toolcall_end", toolCall });
    }
  }

  /** Emits the terminal event and returns the assistant. Unfinished calls are dropped: none got its end. */
  finish(end: StreamEnd, timestamp: number): AssistantMessage {
    const content: (TextContent | ToolCall)[] = this.text === "" ? [] : [{ type: "text", text: this.text }];
    content.push(...this.calls);
    const assistant: AssistantMessage = { role: "assistant", content, stopReason: "stop", timestamp };
    if (this.usage) assistant.usage = this.usage;

    const failure = this.failureOf(end);
    if (failure === undefined) {
      const outcome = mapFinishReason(this.finishReason);
      if ("reason" in outcome) {
        assistant.stopReason = outcome.reason;
        this.emit({ type: "done", reason: outcome.reason });
        return assistant;
      }
      return this.fail(assistant, "error", outcome.error);
    }
    return this.fail(assistant, failure.reason, failure.message);
  }

  private failureOf(end: StreamEnd): { reason: "error" | "aborted"; message: string } | undefined {
    if (end.kind === "aborted") return { reason: "aborted", message: ABORTED_MESSAGE };
    if (end.kind === "failed") return { reason: "error", message: end.message };
    if (this.callProblem !== undefined) return { reason: "error", message: this.callProblem };
    return undefined;
  }

  private fail(assistant: AssistantMessage, reason: "error" | "aborted", message: string): AssistantMessage {
    assistant.stopReason = reason;
    assistant.errorMessage = message;
    this.emit({ type: "error", reason, message });
    return assistant;
  }
}
