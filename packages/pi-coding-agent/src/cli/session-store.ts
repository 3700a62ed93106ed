// Sessions: the transcript of a run as JSON lines, one Message per line, in
// `<workspace>/.tiny-pi/sessions/<timestamp>.jsonl`. Lines are appended synchronously as the
// messages form, so a run stopped hard keeps everything it had. A new session's file is created
// only once the model has answered: a run that never reached the model (a 401, a server that is
// not there) writes nothing.
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AssistantMessage, Message, ToolResultMessage } from "@pi/core";
import { UsageError } from "./errors.js";

export interface SessionStore {
  /** The session file, once there is one. */
  readonly file: string | undefined;
  append(messages: Message[]): void;
}

/** A store that keeps nothing (--no-session). */
export const noSession: SessionStore = { file: undefined, append() {} };

/** The folder of a workspace's sessions. */
export function sessionsDir(workspace: string): string {
  return path.join(workspace, ".tiny-pi", "sessions");
}

/** A new session in `workspace`; its file appears with the model's first answer. */
export function newSession(workspace: string, now: () => Date = () => new Date()): SessionStore {
  let file: string | undefined;
  const pending: Message[] = [];
  return {
    get file() {
      return file;
    },
    append(messages) {
      if (file === undefined) {
        pending.push(...messages);
        if (!pending.some(isAnswer)) return;
        file = createSessionFile(sessionsDir(workspace), now());
        messages = pending.splice(0);
      }
      appendLines(file, messages);
    },
  };
}

function isAnswer(message: Message): boolean {
  return message.role === "assistant" && message.stopReason !== "error";
}

/** `2026-11-30T16-22-38-123Z.jsonl`, or `…-2.jsonl` if that name is taken; never overwrites. */
function createSessionFile(dir: string, at: Date): string {
  mkdirSync(dir, { recursive: true });
  const stamp = at.toISOString().replace(/[:.]/g, "-");
  for (let n = 1; ; n += 1) {
    const file = path.join(dir, n === 1 ? `${stamp}.jsonl` : `${stamp}-${n}.jsonl`);
    try {
      closeSync(openSync(file, "wx"));
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

function appendLines(file: string, messages: Message[]): void {
  if (messages.length === 0) return;
  appendFileSync(file, messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
}

export interface ResumedSession {
  store: SessionStore;
  /** The conversation so far, every tool call paired. */
  messages: Message[];
}

/**
 * Continues the session in `file`: its messages, and a store appending to it. A call left without
 * a result (the run was stopped hard mid-batch) is paired as aborted, so the next request is a
 * valid transcript; the file gets that result with the first new message, not before. A file that
 * is missing or not a session is a UsageError.
 */
export function resumeSession(file: string): ResumedSession {
  const messages = readSession(file);
  const repairs = unpairedCallResults(messages);
  messages.push(...repairs);
  const store: SessionStore = { file, append: (more) => appendLines(file, [...repairs.splice(0), ...more]) };
  return { store, messages };
}

function readSession(file: string): Message[] {
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "不存在" : code === "EISDIR" ? "是一个目录" : `无法读取（${code ?? "未知错误"}）`;
    throw new UsageError(`会话文件 ${file} ${why}：请给出 .tiny-pi/sessions/ 里的某个 .jsonl 文件。`);
  }
  const messages: Message[] = [];
  for (const [index, line] of content.split("\n").entries()) {
    if (line.trim() === "") continue;
    const message = parseMessage(line);
    if (message === undefined) {
      throw new UsageError(`会话文件 ${file} 第 ${index + 1} 行不是一条消息：请给出 tiny-pi 写的会话文件。`);
    }
    messages.push(message);
  }
  return messages;
}

function parseMessage(line: string): Message | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { role, content } = value as { role?: unknown; content?: unknown };
  const known = role === "user" || role === "assistant" || role === "toolResult";
  const contentOk = Array.isArray(content) || (role === "user" && typeof content === "string");
  return known && contentOk ? (value as Message) : undefined;
}

/** Aborted results for the calls of the last assistant that have none. */
function unpairedCallResults(messages: Message[]): ToolResultMessage[] {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== "assistant") index -= 1;
  const assistant = messages[index] as AssistantMessage | undefined;
  if (assistant === undefined) return [];
  const answered = new Set(
    messages.slice(index + 1).flatMap((message) => (message.role === "toolResult" ? [message.toolCallId] : [])),
  );
  return assistant.content.flatMap((block) =>
    block.type === "toolCall" && !answered.has(block.id)
      ? [
          {
            role: "toolResult" as const,
            toolCallId: block.id,
            toolName: block.name,
            content: [{ type: "text" as const, text: "Tool call was interrupted before its result was saved." }],
            details: { skipped: true, reason: "aborted" },
            isError: true,
            timestamp: Date.now(),
          },
        ]
      : [],
  );
}
