// The model tiny-pi uses with no --base-url: chapter 07's README round trip, played by a
// ScriptedModel one turn at a time. Only the turns are scripted; the facts are real: the
// answer is taken from what the real `read` tool returned for the workspace's README.md.
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type Model,
  type ModelRequest,
  type ModelStream,
  type ModelStreamOptions,
  ScriptedModel,
  type ToolResultMessage,
  text,
} from "@pi/core";

/** The chapter's question, asked when the embedded model runs without a prompt. */
export const readmeQuestion = "请读取 README.md，并告诉我项目名。";

/** The one line the human view shows first: what this model is, and how to use a real one. */
export const embeddedModelNotice =
  "内置脚本模型：离线重放第 07 章的 README 往返（read 是真实工具）。接真实模型：" +
  "--base-url http://localhost:11434/v1 --model qwen2.5-coder:7b（Ollama），" +
  "或 --base-url https://api.openai.com/v1 --model gpt-4o-mini 并设置 OPENAI_API_KEY。";

export function readmeRoundTripModel(): Model {
  return {
    stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
      return new ScriptedModel([nextTurn(request.messages)]).stream(request, options);
    },
  };
}

/**
 * After a user message: ask `read(README.md)`. After that call's result: answer from it.
 * Call ids count up across a conversation (call-1, call-2, …), as a REPL keeps asking.
 */
function nextTurn(messages: Message[]): AssistantMessage {
  const last = messages.at(-1);
  if (last?.role === "toolResult") return assistantMessage([text(answerFrom(last))], "stop");
  const callNumber = messages.filter((message) => message.role === "toolResult").length + 1;
  return assistantMessage(
    [
      text("我先读取项目说明。"),
      { type: "toolCall", id: `call-${callNumber}`, name: "read", arguments: { path: "README.md" } },
    ],
    "toolUse",
  );
}

function answerFrom(result: ToolResultMessage): string {
  const content = result.content.map((block) => block.text).join("\n");
  if (result.isError) return `没能读取 README.md：${firstLine(content)}`;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(content)?.[1];
  if (heading !== undefined) return `项目名是 ${heading}。`;
  return `README.md 里没有一级标题；它的第一行是：${firstLine(content)}`;
}

function firstLine(content: string): string {
  return content.split(/\r?\n/).find((line) => line.trim() !== "") ?? "（空）";
}
