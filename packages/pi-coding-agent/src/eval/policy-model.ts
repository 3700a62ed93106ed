// An offline model that plays a policy: before each answer it looks at the request as a real
// provider would (a transcript that is not consistent, or one over the window, is refused with a
// 400 line, as OpenAI-compatible servers do), then asks the task's policy for the next turn, given
// the request's messages. The usage it reports is the chapter 11 estimate of request and answer.
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type Model,
  PushModelStream,
  type TextContent,
  type ToolCall,
  type ToolResultMessage,
  text,
} from "@pi/core";
import { estimateTokens } from "../compaction/tokens.js";
import { checkActivePath } from "./verdict.js";

export type Policy = (messages: readonly Message[]) => AssistantMessage;

export interface PolicyOptions {
  /** Requests over this many (estimated) tokens are refused, as a provider refuses a context that is too long. */
  contextWindow?: number;
}

export function policyModel(policy: Policy, options: PolicyOptions = {}): Model {
  return {
    stream(request) {
      const input = request.messages.reduce((total, message) => total + estimateTokens(message), 0);
      const problem = checkActivePath(request.messages);
      let turn: AssistantMessage;
      if (problem !== undefined) {
        turn = refusal(`400 invalid request: the messages are not a valid conversation (${problem})`);
      } else if (options.contextWindow !== undefined && input > options.contextWindow) {
        turn = refusal(`400 context length exceeded: ${input} tokens, the window is ${options.contextWindow}`);
      } else {
        turn = policy(structuredClone(request.messages));
      }
      turn.usage = { input, output: estimateTokens(turn) };
      return play(turn);
    },
  };
}

function refusal(line: string): AssistantMessage {
  return { ...assistantMessage([], "error"), errorMessage: line };
}

function play(turn: AssistantMessage): PushModelStream {
  const stream = new PushModelStream();
  stream.push({ type: "start" });
  for (const block of turn.content) {
    if (block.type === "text") stream.push({ type: "text_delta", delta: block.text });
    else stream.push({ type: "toolcall_end", toolCall: structuredClone(block) });
  }
  stream.push(
    turn.stopReason === "error"
      ? { type: "error", reason: "error", message: turn.errorMessage ?? "error" }
      : { type: "done", reason: turn.stopReason === "toolUse" ? "toolUse" : "stop" },
  );
  stream.end(turn);
  return stream;
}

// The vocabulary policies and judges are written in.

let callNumber = 0;

/** An assistant that calls one tool (ids are unique within the process, as a provider's are). */
export function callTool(name: string, args: Record<string, unknown>, say?: string): AssistantMessage {
  callNumber += 1;
  const call: ToolCall = { type: "toolCall", id: `call_${callNumber}`, name, arguments: args };
  return assistantMessage(say === undefined ? [call] : [text(say), call], "toolUse");
}

export function answer(line: string): AssistantMessage {
  return assistantMessage([text(line)], "stop");
}

export const textOf = (message: Message | undefined): string => {
  if (message === undefined) return "";
  const content = message.content;
  if (typeof content === "string") return content;
  return (content as (TextContent | ToolCall)[])
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("");
};

/** The messages since the last user message (the current interaction), that message first. */
export function sinceUser(messages: readonly Message[]): readonly Message[] {
  const at = lastIndexOf(messages, (message) => message.role === "user");
  return at === -1 ? messages : messages.slice(at);
}

/** The index of the last item that `matches`, or -1 (es2022 has no findLastIndex). */
export function lastIndexOf<T>(items: readonly T[], matches: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (matches(items[index] as T)) return index;
  return -1;
}

export function lastOf<T>(items: readonly T[], matches: (item: T) => boolean): T | undefined {
  return items[lastIndexOf(items, matches)];
}

/** The results of the current interaction, oldest first. */
export function resultsSinceUser(messages: readonly Message[]): ToolResultMessage[] {
  return sinceUser(messages).filter((message): message is ToolResultMessage => message.role === "toolResult");
}

export function finalAnswer(messages: readonly Message[]): string {
  const last = messages.at(-1);
  return last?.role === "assistant" && last.stopReason === "stop" ? textOf(last) : "";
}

/** Each tool call on the path with its result (undefined when it has none). */
export function callsOnPath(messages: readonly Message[]): { call: ToolCall; result: ToolResultMessage | undefined }[] {
  const results = new Map<string, ToolResultMessage>();
  for (const message of messages) if (message.role === "toolResult") results.set(message.toolCallId, message);
  return messages.flatMap((message) =>
    message.role === "assistant"
      ? message.content
          .filter((block): block is ToolCall => block.type === "toolCall")
          .map((call) => ({ call, result: results.get(call.id) }))
      : [],
  );
}

/** A verdict from named checks: success exactly when every check holds. */
export function verdictOf(checks: Record<string, boolean>): { success: boolean; unmet: string[] } {
  const unmet = Object.entries(checks)
    .filter(([, held]) => !held)
    .map(([label]) => label);
  return { success: unmet.length === 0, unmet };
}
