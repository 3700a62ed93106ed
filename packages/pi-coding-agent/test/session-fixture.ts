// Test helpers for the session tree: the chapter's entries, built by id, and a real temp folder
// for session files, removed whatever happens.
import assert from "node:assert/strict";
import fsPromises, { mkdtemp, rm } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import type { AssistantMessage, Message, TextContent, ToolCall } from "@pi/core";
import type { LabelEntry, MessageEntry, SessionEntry, SessionHeader } from "../src/session/entries.js";

export const AT = "2026-12-01T10:00:00.000Z";

export const HEADER: SessionHeader = {
  type: "session",
  version: 3,
  id: "5b0c6f2e-8a51-4d7e-9c2f-1e3a4b5c6d7e",
  timestamp: AT,
  cwd: "/work/greeter",
};

/** Any chapter's unfinished lab (the chapters after 10 reuse these helpers). */
const UNFINISHED_LAB = /^Lab \d+\.\d+ .+ 尚未实现$/;

export function entry(id: string, parentId: string | null, message: Message): MessageEntry {
  return { type: "message", id, parentId, timestamp: AT, message };
}

export function user(id: string, parentId: string | null, words: string): MessageEntry {
  return entry(id, parentId, { role: "user", content: words, timestamp: 1 });
}

export function answer(id: string, parentId: string | null, words: string): MessageEntry {
  const message: AssistantMessage = { role: "assistant", content: [text(words)], stopReason: "stop", timestamp: 2 };
  return entry(id, parentId, message);
}

export function calls(id: string, parentId: string | null, ...callIds: string[]): MessageEntry {
  const content: (TextContent | ToolCall)[] = [
    text("我先改文件。"),
    ...callIds.map((callId) => ({
      type: "toolCall" as const,
      id: callId,
      name: "edit",
      arguments: { path: "greet.ts", edits: [{ oldText: "Hello", newText: "你好" }] },
    })),
  ];
  return entry(id, parentId, { role: "assistant", content, stopReason: "toolUse", timestamp: 3 });
}

export function result(
  id: string,
  parentId: string | null,
  callId: string,
  toolName = "edit",
  output = `edited for ${callId}`,
): MessageEntry {
  return entry(id, parentId, {
    role: "toolResult",
    toolCallId: callId,
    toolName,
    content: [text(output)],
    isError: false,
    timestamp: 4,
  });
}

/** An assistant asking for `read(greet.ts)`. */
export function reads(id: string, parentId: string | null, callId: string): MessageEntry {
  const call: ToolCall = { type: "toolCall", id: callId, name: "read", arguments: { path: "greet.ts" } };
  return entry(id, parentId, {
    role: "assistant",
    content: [text("我先读文件。"), call],
    stopReason: "toolUse",
    timestamp: 3,
  });
}

/** An assistant asking for one edit of greet.ts. */
export function edits(
  id: string,
  parentId: string | null,
  callId: string,
  oldText: string,
  newText: string,
): MessageEntry {
  const call: ToolCall = {
    type: "toolCall",
    id: callId,
    name: "edit",
    arguments: { path: "greet.ts", edits: [{ oldText, newText }] },
  };
  return entry(id, parentId, {
    role: "assistant",
    content: [text("我来改。"), call],
    stopReason: "toolUse",
    timestamp: 3,
  });
}

export function label(id: string, parentId: string | null, targetId: string, name: string): LabelEntry {
  return { type: "label", id, parentId, timestamp: AT, targetId, label: name };
}

function text(value: string): TextContent {
  return { type: "text", text: value };
}

/**
 * The chapter's session: a question about greet.ts (entries 1–4), an edit that changed the
 * wrong function (5–8), and a second try branched from entry 4 (9–12). Leaves: a0000008 (the wrong edit) and a000000c (the retry).
 */
export function chapterSession(): SessionEntry[] {
  return [
    user("a0000001", null, "读一下 greet.ts。"),
    reads("a0000002", "a0000001", "call-1"),
    result("a0000003", "a0000002", "call-1", "read", GREET_TS),
    answer("a0000004", "a0000003", "greet() 返回 Hello，farewell() 返回 Goodbye。"),
    user("a0000005", "a0000004", "把问候改成中文。"),
    edits("a0000006", "a0000005", "call-2", "Goodbye", "再见"),
    result("a0000007", "a0000006", "call-2"),
    answer("a0000008", "a0000007", "已把 farewell() 改成中文。"),
    user("a0000009", "a0000004", "只改 greet()，把 Hello 改成你好。"),
    edits("a000000a", "a0000009", "call-3", "Hello", "你好"),
    result("a000000b", "a000000a", "call-3"),
    answer("a000000c", "a000000b", "greet() 现在返回你好。"),
  ];
}

const GREET_TS = 'export const greet = () => "Hello";\nexport const farewell = () => "Goodbye";\n';

export const ids = (entries: readonly SessionEntry[]): string[] => entries.map((item) => item.id);

/** Runs `use` with a fresh temp folder for session files and removes it afterwards. */
export async function withSessionDir(use: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pi-course-session-"));
  try {
    await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The error `run` throws or rejects with; an unfinished lab's own error is thrown on, so it is what the test shows. */
export async function refusal(run: () => unknown, rule: string): Promise<string> {
  try {
    await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (UNFINISHED_LAB.test(message)) throw error;
    assert.equal(message.split("\n").length, 1, `${rule}：拒绝只有一行`);
    return message;
  }
  assert.fail(`${rule}：应当被拒绝，却成功了`);
}

/** One session file's text: the header line and one line per entry. */
export function sessionText(entries: readonly SessionEntry[], header: SessionHeader = HEADER): string {
  return [header, ...entries].map((item) => `${JSON.stringify(item)}\n`).join("");
}

/** A write the test holds: its line, and the call that lets it go on to the real appendFile. */
export interface HeldWrite {
  data: string;
  release(): void;
}

/**
 * Runs `use` while every node:fs/promises appendFile waits for the test to release it; held writes
 * are listed in start order. syncBuiltinESMExports() makes a module's named import see the held
 * version, so the test sees exactly when each write starts, without any clock.
 */
export async function withHeldWrites(use: (held: HeldWrite[]) => Promise<void>): Promise<void> {
  const real = fsPromises.appendFile;
  const held: HeldWrite[] = [];
  fsPromises.appendFile = ((file: string, data: string, options: object) =>
    new Promise<void>((resolve, reject) => {
      held.push({ data, release: () => real(file, data, options).then(resolve, reject) });
    })) as typeof fsPromises.appendFile;
  syncBuiltinESMExports();
  try {
    await use(held);
  } finally {
    fsPromises.appendFile = real;
    syncBuiltinESMExports();
  }
}

/** Lets every pending promise callback run (no clock involved). */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
