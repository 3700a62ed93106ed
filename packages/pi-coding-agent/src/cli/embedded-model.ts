// The model tiny-pi uses with no --base-url: chapter 07's README round trip, played by a
// ScriptedModel one turn at a time. Only the turns are scripted; the facts are real: the
// answer is taken from what the real `read` tool returned for the workspace's README.md.
// Asked for a compaction summary, it answers one taken from the transcript it was sent, the same
// every time, so compaction runs offline end to end.
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
import { isSummaryRequest } from "../host/summarise.js";

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
      const turn = isSummaryRequest(request) ? summaryTurn(request) : nextTurn(request.messages);
      return new ScriptedModel([turn]).stream(request, options);
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

/**
 * The summary of a summarisation request (summarise.ts writes the older messages one per line):
 * the goal is the first question, each tool call is something done, the start of the last answer
 * is what to keep in mind; an earlier summary's goal, if there was one, stays the goal.
 */
function summaryTurn(request: ModelRequest): AssistantMessage {
  const asked = request.messages
    .map((message) => (typeof message.content === "string" ? message.content : ""))
    .join("\n");
  const lines = asked.split("\n");
  const said = (tag: string) =>
    lines.filter((line) => line.startsWith(`[${tag}] `)).map((line) => line.slice(tag.length + 3));
  const earlierGoal = /^## Goal\n(.+)$/m.exec(/<更早的摘要>([\s\S]*?)<\/更早的摘要>/.exec(asked)?.[1] ?? "")?.[1];
  const calls = lines.filter((line) => line.startsWith("[调用 ")).map((line) => line.slice(1).replace("] ", " "));
  const summary = {
    goal: earlierGoal ?? said("用户")[0] ?? "（对话里没有问题）",
    constraints: [],
    done: [...said("用户").map((question) => `回答了：${question}`), ...calls.map((call) => `已${call}`)],
    inProgress: [],
    blocked: [],
    decisions: [],
    nextSteps: ["回答用户的下一个问题"],
    criticalContext: said("助手")
      .slice(-1)
      .map((answer) => (answer.length > 40 ? `${answer.slice(0, 40)}…` : answer)),
  };
  return assistantMessage([text(JSON.stringify(summary))], "stop");
}
