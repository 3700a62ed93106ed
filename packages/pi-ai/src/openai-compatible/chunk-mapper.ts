// Chat Completions chunks → chapter 01's ModelEvents and the turn's one assistant.
import type { AssistantMessage, ModelEvent, TextContent, ToolCall } from "@pi/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { mapFinishReason } from "./finish-reason.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";

/** How the transport ended: it read the stream to its end, the signal aborted it, or it failed. */
export type StreamEnd = { kind: "complete" } | { kind: "aborted" } | { kind: "failed"; message: string };

const ABORTED_MESSAGE = "aborted: the request was cancelled";

type Delta = ChatCompletionChunk.Choice.Delta;

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
    // Usage may ride on any chunk, most often a last one with `choices: []`, after finish_reason.
    const usage = chunk.usage;
    if (usage) this.usage = { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 };
    const choice = chunk.choices?.[0];
    if (choice === undefined || this.finishReason !== undefined) return;
    if (choice.delta) {
      this.acceptText(choice.delta);
      if (choice.delta.tool_calls) this.acceptFragments(choice.delta.tool_calls);
    }
    // The finishing chunk may still carry a last fragment (vLLM does), so it is read first.
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      if (this.assembler.pending) this.endCalls(choice.finish_reason);
    }
  }

  /** Emits the terminal event and returns the assistant, which keeps everything received so far. */
  finish(end: StreamEnd, timestamp: number): AssistantMessage {
    const assistant = this.partial(timestamp);
    if (end.kind === "aborted") {
      return this.fail(assistant, "aborted", ABORTED_MESSAGE);
    }
    if (end.kind === "failed") {
      return this.fail(assistant, "error", end.message);
    }
    if (this.callProblem !== undefined) return this.fail(assistant, "error", this.callProblem);
    return this.finished(assistant);
  }

  /** The stream was read to its end: finish_reason decides how the turn ends. */
  private finished(assistant: AssistantMessage): AssistantMessage {
    const outcome = mapFinishReason(this.finishReason);
    if ("error" in outcome) return this.fail(assistant, "error", outcome.error);
    assistant.stopReason = outcome.reason;
    this.emit({ type: "done", reason: outcome.reason });
    return assistant;
  }

  private acceptText(delta: Delta): void {
    // Servers send "" or null fragments; reasoning_content is ignored: it stays out of the answer.
    const content = delta.content;
    if (typeof content !== "string" || content === "") return;
    this.text += content;
    this.emit({ type: "text_delta", delta: content });
  }

  private acceptFragments(fragments: NonNullable<Delta["tool_calls"]>): void {
    for (const fragment of fragments) {
      const piece = this.assembler.accept(fragment);
      if (piece !== "") this.emit({ type: "toolcall_delta", delta: piece });
    }
  }

  /**
   * The calls are whole: each gets its `toolcall_end`. Under `length` the token limit cut the
   * answer, so arguments may be cut too: that is the turn's reason, not a broken call.
   */
  private endCalls(finishReason: string): void {
    const { calls, problem } = this.assembler.finish();
    this.calls = calls;
    this.callProblem = finishReason === "length" ? undefined : problem;
    for (const toolCall of calls) this.emit({ type: "toolcall_end", toolCall });
  }

  /** What arrived, whatever the end: the text and the calls that got their end, and the usage. Unfinished calls are dropped. */
  private partial(timestamp: number): AssistantMessage {
    const content: (TextContent | ToolCall)[] = this.text === "" ? [] : [{ type: "text", text: this.text }];
    content.push(...this.calls);
    const assistant: AssistantMessage = { role: "assistant", content, stopReason: "stop", timestamp };
    if (this.usage) assistant.usage = this.usage;
    return assistant;
  }

  private fail(assistant: AssistantMessage, reason: "error" | "aborted", message: string): AssistantMessage {
    assistant.stopReason = reason;
    assistant.errorMessage = message;
    this.emit({ type: "error", reason, message });
    return assistant;
  }
}
