// The one summarisation request of a compaction: the prompt kept in prompts/compaction-summary.md
// as the system prompt, the older messages (and the previous summary) written out as text in one
// user message, no tools, asking for JSON output (servers that support `response_format` are held
// to it). The answer must be the JSON object the prompt asks for: the whole answer, or the one
// fenced code block in it (a model that adds a sentence around its fence still compacts); it is
// parsed strictly (parseCompactionSummary), and anything else is a CompactionError: nothing is
// appended, so the next attempt starts from the same state.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Message, type Model, type ModelRequest, userMessage } from "@pi/core";
import { type CompactionSummary, parseCompactionSummary } from "../compaction/index.js";
import type { CompactionEntry } from "../session/entries.js";
import { COMPACTION_FAILED, CompactionError } from "./compaction-error.js";

/** The prompt stays in the package's prompts/ folder, found from dist/src/cli/ (built) or src/cli/ (the demo, under tsx). */
export const SUMMARY_PROMPT_FILE = path.join(packageRoot(), "prompts", "compaction-summary.md");

function packageRoot(): string {
  const src = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const above = path.dirname(src);
  return path.basename(above) === "dist" ? path.dirname(above) : above;
}

let prompt: string | undefined;
export function summaryPrompt(): string {
  prompt ??= readFileSync(SUMMARY_PROMPT_FILE, "utf8");
  return prompt;
}

/** A tool result longer than this is cut in the transcript the summariser reads. */
export const RESULT_CHARS = 2000;

export interface SummaryInput {
  /** The newest compaction before this one: its summary is merged into the new one. */
  previous: CompactionEntry | undefined;
  /** The messages the new summary replaces. */
  dropped: readonly Message[];
  /** `/compact [instructions]`. */
  instructions?: string;
}

export function summaryRequest(input: SummaryInput): ModelRequest {
  const parts = [
    ...(input.previous !== undefined ? [`<更早的摘要>\n${input.previous.summary}\n</更早的摘要>`] : []),
    `<对话>\n${transcriptText(input.dropped)}\n</对话>`,
    ...(input.instructions ? [`<额外要求>\n${input.instructions}\n</额外要求>`] : []),
  ];
  return { systemPrompt: summaryPrompt(), messages: [userMessage(parts.join("\n\n"))], tools: [], output: "json" };
}

/** Whether `request` is a summarisation request (the embedded model answers it with its own summary). */
export function isSummaryRequest(request: ModelRequest): boolean {
  return request.tools.length === 0 && request.systemPrompt === summaryPrompt();
}

/** One line per message: `[用户] …`, `[助手] …`, `[调用 read] {…}`, `[结果 read] …`. */
export function transcriptText(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      lines.push(`[用户] ${typeof message.content === "string" ? message.content : joined(message.content)}`);
    } else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text") lines.push(`[助手] ${block.text}`);
        else if (block.type === "toolCall") lines.push(`[调用 ${block.name}] ${JSON.stringify(block.arguments)}`);
      }
    } else {
      const content = joined(message.content);
      const cut =
        content.length > RESULT_CHARS
          ? `${content.slice(0, RESULT_CHARS)}…（截断，共 ${content.length} 字符）`
          : content;
      lines.push(`[${message.isError ? "错误结果" : "结果"} ${message.toolName}] ${cut}`);
    }
  }
  return lines.join("\n");
}

function joined(blocks: readonly { type: string; text?: string }[]): string {
  return blocks.flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : [])).join("\n");
}

/** Sends the request and parses the answer; any failure is a CompactionError naming it. */
export async function summarise(
  model: Model,
  input: SummaryInput,
  signal?: AbortSignal,
  parse: typeof parseCompactionSummary = parseCompactionSummary,
): Promise<CompactionSummary> {
  let answer: Awaited<ReturnType<ReturnType<Model["stream"]>["result"]>>;
  try {
    answer = await model.stream(summaryRequest(input), signal !== undefined ? { signal } : {}).result();
  } catch (error) {
    throw new CompactionError(`${COMPACTION_FAILED}：摘要请求出错（${firstLine(error)}）：会话没有改动，再试一次。`);
  }
  if (answer.stopReason === "aborted" || signal?.aborted) {
    throw new CompactionError(
      `${COMPACTION_FAILED}：摘要请求被中止（Ctrl-C）：会话没有改动，下一次从同样的状态重新压缩。`,
      true,
    );
  }
  if (answer.stopReason === "error") {
    throw new CompactionError(
      `${COMPACTION_FAILED}：摘要请求出错（${answer.errorMessage ?? "模型没有说明原因"}）：会话没有改动，再试一次。`,
    );
  }
  if (answer.stopReason === "length") {
    throw new CompactionError(
      `${COMPACTION_FAILED}：摘要被截断（length）：会话没有改动；用 --reserve 给回答留更多 token。`,
    );
  }
  const text = answer.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  return parseSummaryAnswer(text, parse);
}

/** A fenced code block (```json or a bare ```) on lines of its own. */
const FENCE = /^[ \t]*```[ \t]*(?:json)?[ \t]*\n([\s\S]*?)\n[ \t]*```[ \t]*$/gm;

/**
 * The JSON text of an answer: the whole answer when it is one JSON value, else the body of its one
 * fenced block; undefined when there is no fence or more than one (which of them would be a guess).
 */
export function summaryJson(text: string): string | undefined {
  if (/^\s*[{[]/.test(text) && /[}\]]\s*$/.test(text)) return text;
  const fences = [...text.matchAll(FENCE)];
  return fences.length === 1 ? fences[0]?.[1] : undefined;
}

/** The answer's JSON object (the whole answer, or exactly one fenced block in it), checked field by field. */
export function parseSummaryAnswer(
  text: string,
  parse: typeof parseCompactionSummary = parseCompactionSummary,
): CompactionSummary {
  const body = summaryJson(text);
  let value: unknown;
  try {
    if (body === undefined) throw new SyntaxError("no single JSON object");
    value = JSON.parse(body);
  } catch {
    throw new CompactionError(
      `${COMPACTION_FAILED}：模型的摘要不是 JSON（开头是 ${JSON.stringify(text.trim().slice(0, 40))}）：会话没有改动；再试一次，或换一个更能遵循格式的模型。`,
    );
  }
  try {
    return parse(value);
  } catch (error) {
    throw new CompactionError(
      `${COMPACTION_FAILED}：模型的摘要格式不对（${firstLine(error)}）：会话没有改动；再试一次，或换一个更能遵循格式的模型。`,
    );
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
