// Sessions as text: `tiny-pi tree FILE` and the REPL's /tree draw one session's tree, and
// `tiny-pi sessions` lists a workspace's sessions. A chain without branches stays in one column;
// only a branch point indents, so a long conversation reads top to bottom. A session file may come
// from anywhere: every line is shown with its control characters escaped (visible-text.ts).

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Message } from "@pi/core";
import { withoutDurable } from "../durable/records.js";
import type { ToolChange } from "../exposure/tool-state.js";
import { piOriginal, piSummary } from "../host/pi-entries.js";
import { readSessionFile, sessionsDir } from "../host/session-file.js";
import { visible } from "../host/visible-text.js";
import { modelInForce } from "../models/index.js";
import type { SessionEntry } from "../session/entries.js";
import { pathTo } from "../session/session-tree.js";
import type { SessionCommand } from "./args.js";

const WORDS = 48;

/** The tree of `entries` (file order), one line per entry with its id, role and first words; the leaf marked. */
export function formatTree(all: readonly SessionEntry[], leaf: string | null, file: string): string {
  // The REPL's /tree hands the store's entries, chapter 19's records included: they annotate entries, they are not rows.
  const entries = withoutDurable(all);
  const children = new Map<string | null, SessionEntry[]>();
  const ids = new Set(entries.map((entry) => entry.id));
  for (const entry of entries) {
    const parent = entry.parentId !== null && ids.has(entry.parentId) ? entry.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), entry]);
  }
  const lines = [`会话 ${file} · ${entries.length} 个条目 · ${branchCount(entries)} 个分支`];
  // Iterative depth-first walk: a session can be far deeper than the call stack.
  const stack: { entry: SessionEntry; prefix: string; connector: string }[] = [];
  const push = (parent: string | null, prefix: string) => {
    const kids = children.get(parent) ?? [];
    const branching = kids.length > 1;
    for (let index = kids.length - 1; index >= 0; index -= 1) {
      const entry = kids[index] as SessionEntry;
      const last = index === kids.length - 1;
      stack.push({
        entry,
        prefix: branching ? `${prefix}${last ? "   " : "│  "}` : prefix,
        connector: branching ? `${prefix}${last ? "└─ " : "├─ "}` : prefix,
      });
    }
  };
  push(null, "");
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const mark = item.entry.id === leaf ? "  ← 叶" : "";
    lines.push(`${item.connector}${item.entry.id} ${summary(item.entry)}${mark}`);
    push(item.entry.id, item.prefix);
  }
  return visible(lines.join("\n"));
}

/** Leaves: entries no other entry names as its parent. */
function branchCount(entries: readonly SessionEntry[]): number {
  const parents = new Set(entries.map((entry) => entry.parentId));
  return entries.filter((entry) => !parents.has(entry.id)).length;
}

function summary(entry: SessionEntry): string {
  const pi = piOriginal(entry);
  if (pi !== undefined) {
    const { kind, words } = piSummary(pi);
    return `${kind.padEnd(10)} ${firstWords(words)}`;
  }
  switch (entry.type) {
    case "message":
      return messageSummary(entry.message);
    case "label":
      return `标签      ${entry.label === undefined ? "（清除）" : `“${entry.label}”`} → ${entry.targetId}`;
    case "session_info":
      return `名字      “${entry.name}”`;
    case "model_change":
      return `模型      ${entry.provider}/${entry.modelId}`;
    case "thinking_level_change":
      return `思考级别  ${entry.thinkingLevel}`;
    case "compaction":
      return `压缩      从 ${entry.firstKeptEntryId} 起保留，之前 ${entry.tokensBefore} tokens`;
    case "custom":
      return `工具      ${toolChangeLine(entry.data)}`;
  }
}

function toolChangeLine(change: ToolChange): string {
  const parts = [
    ...(change.removed.length > 0 ? [`− ${change.removed.join(", ")}`] : []),
    ...(change.added.length > 0 ? [`+ ${change.added.map((tool) => tool.name).join(", ")}`] : []),
  ];
  return parts.join("  ");
}

function messageSummary(message: Message): string {
  switch (message.role) {
    case "user":
      return `user       ${firstWords(typeof message.content === "string" ? message.content : message.content.map((block) => block.text).join(""))}`;
    case "assistant": {
      const words = message.content.map((block) => (block.type === "text" ? block.text : `${block.name}(${block.id})`));
      return `assistant  ${firstWords(words.join(" "))}${message.stopReason === "stop" ? "" : ` [${message.stopReason}]`}`;
    }
    case "toolResult":
      return `toolResult ${message.toolCallId}${message.isError ? " ✗" : ""} ${firstWords(message.content.map((block) => block.text).join(""))}`;
  }
}

function firstWords(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > WORDS ? `${line.slice(0, WORDS)}…` : line;
}

/** `tiny-pi sessions`: each session of `dir`, newest first: name or first prompt, entries, branches, last change, last model. */
export function listSessions(dir: string, shown: (file: string) => string): string {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  } catch {
    names = [];
  }
  if (names.length === 0) return visible(`${shown(dir)} 里还没有会话：运行一次 tiny-pi 就会有第一个。`);
  const rows = names
    .map((name) => path.join(dir, name))
    .map((file) => ({ file, changed: statSync(file).mtime }))
    .sort((a, b) => b.changed.getTime() - a.changed.getTime())
    .map(({ file, changed }) => `${changedAt(changed)}  ${shown(file)}  ${describe(file)}`);
  return visible(rows.join("\n"));
}

function describe(file: string): string {
  try {
    const { entries } = readSessionFile(file);
    const named = [...entries].reverse().find((entry) => entry.type === "session_info");
    const firstPrompt = entries.find((entry) => entry.type === "message" && entry.message.role === "user");
    const title =
      named?.type === "session_info"
        ? named.name
        : firstPrompt?.type === "message"
          ? messageSummary(firstPrompt.message).replace(/^user\s+/, "")
          : "（没有消息）";
    // The model the newest entry's branch is on: the one a --resume continues with.
    const newest = entries.at(-1);
    const model = newest === undefined ? undefined : modelInForce(pathTo(entries, newest.id));
    return `${entries.length} 个条目 · ${branchCount(entries)} 个分支 · ${title}${model !== undefined ? ` · 模型 ${model}` : ""}`;
  } catch (error) {
    return `（打不开：${(error as Error).message.split("：")[0]}）`;
  }
}

function changedAt(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The text `tiny-pi sessions` or `tiny-pi tree FILE` prints; paths shown relative to `from`. */
export function sessionCommandText(
  command: SessionCommand,
  workspace: string,
  shown: (file: string) => string,
): string {
  if (command.kind === "sessions") return listSessions(sessionsDir(workspace), shown);
  const { entries, tornTail } = readSessionFile(command.file);
  const tree = formatTree(entries, entries.at(-1)?.id ?? null, shown(command.file));
  return tornTail === undefined
    ? tree
    : `${tree}\n（第 ${tornTail.line} 行没有写完，不算提交：上次运行在写入时被打断）`;
}
