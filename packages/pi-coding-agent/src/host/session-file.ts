// Reading a session file for tiny-pi: chapter 10's recovery, with every fault one line that names
// the file and the fix. Nothing here writes: a file that cannot be used stays byte for byte as it was.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import type { Message } from "@pi/core";
import { withoutDurable } from "../durable/records.js";
import type { RecoveredSession } from "../session/jsonl-recovery.js";
import { messageProblem } from "../session/message-shape.js";
import { UsageError } from "./errors.js";
import { courseSessionCode, type SessionCode } from "./session-code.js";

/** Whether `file` ends inside a line (a write cut off by a full disk or a crash): --resume then refuses it, --fork does not. */
export function endsInsideALine(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The folder of a workspace's sessions. */
export function sessionsDir(workspace: string): string {
  return path.join(workspace, ".tiny-pi", "sessions");
}

export interface SessionFile extends RecoveredSession {
  file: string;
}

/**
 * The committed header and entries of `file`, validated line by line (by `code`'s recovery: the
 * course's, which also reads what Pi writes, or a learner's).
 */
export function readSessionFile(file: string, code: SessionCode = courseSessionCode): SessionFile {
  const content = readText(file);
  if (isLinear(content)) {
    throw new UsageError(
      `会话文件 ${file} 是早期 tiny-pi 的线性格式（每行一条消息）：用 --fork ${file} 把它转成第 3 版会话树的新文件，原文件不变。`,
    );
  }
  try {
    const recovered = code.recoverSession(content, file, code.readEntry);
    // Chapter 19's records annotate entries; what reads a file for its conversation does not see them.
    return { file, ...recovered, entries: withoutDurable(recovered.entries) };
  } catch (error) {
    throw new UsageError(
      `会话文件 ${(error as Error).message}：文件没有被改动；请修好或删掉这一行，或者换一个会话文件。`,
    );
  }
}

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "不存在" : code === "EISDIR" ? "是一个目录" : `无法读取（${code ?? "未知错误"}）`;
    throw new UsageError(`会话文件 ${file} ${why}：请给出 .tiny-pi/sessions/ 里的某个 .jsonl 文件。`);
  }
}

/** Whether the first line is a bare message (`{"role":…}`): tiny-pi's format before chapter 10. */
export function isLinear(content: string): boolean {
  const first = content.split("\n").find((line) => line.trim() !== "");
  if (first === undefined) return false;
  try {
    const value = JSON.parse(first) as { role?: unknown; type?: unknown };
    return typeof value === "object" && value !== null && value.type === undefined && typeof value.role === "string";
  } catch {
    return false;
  }
}

/** The messages of a linear file, one per line; a line that is not one is a UsageError naming it. */
export function readLinearMessages(content: string, file: string): Message[] {
  const messages: Message[] = [];
  for (const [index, line] of content.split("\n").entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (messageProblem(value) !== undefined) {
      throw new UsageError(`会话文件 ${file} 第 ${index + 1} 行不是一条消息：请给出 tiny-pi 写的会话文件。`);
    }
    messages.push(value as Message);
  }
  return messages;
}
