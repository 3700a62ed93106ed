// What upstream Pi writes every day and chapter 10's reader leaves to later chapters, read by
// tiny-pi's host: a `message` whose role is `bashExecution` (Pi's `!command`), `custom` entries
// (extension state), `custom_message` entries (extension messages), `branch_summary` entries (Pi's
// /tree navigation with a summary), and `image` blocks in a user message. A line goes to chapter
// 10's checkEntry first (so whatever the course's reader knows stays its own); only what it
// refuses and Pi wrote becomes a stand-in here. Each stand-in keeps its id, parentId and timestamp
// (the tree is Pi's tree) and the original entry under `pi` (for tree and export); what Pi's
// `convertToLlm` sends becomes a user message entry the Runtime sends as it is, what Pi does not
// send becomes an entry of type "pi_unsent" that no context builder reads. Stand-ins live in
// memory only: the file keeps Pi's bytes, and new entries are chapter 10's own.
import type { TextContent, UserMessage } from "@pi/core";
import { SUMMARY_PREFIX, SUMMARY_SUFFIX } from "../compaction/render.js";
import { ENTRY_ID, type SessionEntry } from "../session/entries.js";
import { checkEntry } from "../session/parse-entry.js";

/** The wrapping Pi gives a branch summary in a request (its `branch_summary` and `branchSummary` messages). */
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** Pi's image block: base64 `data` and its `mimeType`. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** A user message whose Pi content held images: `content` is its text, `piContent` every block in order. */
export interface UserMessageWithImages extends UserMessage {
  piContent: (TextContent | ImageContent)[];
}

/** The original line of a stand-in, as Pi wrote it. */
export type PiOriginal = Record<string, unknown> & { type: string; id: string };

/** A Pi entry the Runtime does not send (a `custom` entry, a `bashExecution` run with `!!`). */
export interface UnsentEntry {
  type: "pi_unsent";
  id: string;
  parentId: string | null;
  timestamp: string;
  pi: PiOriginal;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The original of a stand-in, or undefined for an entry of the course's own. */
export function piOriginal(entry: SessionEntry): PiOriginal | undefined {
  const pi = (entry as unknown as { pi?: unknown }).pi;
  return isObject(pi) ? (pi as PiOriginal) : undefined;
}

/**
 * A line of a session file as an entry: chapter 10's checkEntry, or, for what it refuses and Pi
 * wrote, the stand-in. Anything else keeps chapter 10's one-line refusal.
 */
export function readPiEntry(value: unknown): SessionEntry {
  try {
    return checkEntry(value);
  } catch (error) {
    const standIn = piStandIn(value);
    if (standIn === undefined) throw error;
    return standIn;
  }
}

/** The stand-in of one of Pi's entries, or undefined when `value` is none of them (or not well formed). */
function piStandIn(value: unknown): SessionEntry | undefined {
  if (!isObject(value) || typeof value.type !== "string" || typeof value.id !== "string") return undefined;
  if (!ENTRY_ID.test(value.id) || !(value.parentId === null || typeof value.parentId === "string")) return undefined;
  if (typeof value.timestamp !== "string" || Number.isNaN(Date.parse(value.timestamp))) return undefined;
  const original = value as PiOriginal;
  const at = Date.parse(value.timestamp);
  switch (value.type) {
    case "custom":
      return typeof value.customType === "string" ? unsent(original) : undefined;
    case "custom_message": {
      if (typeof value.customType !== "string") return undefined;
      const content = typeof value.content === "string" ? [text(value.content)] : value.content;
      return sent(original, content, at);
    }
    case "branch_summary":
      if (typeof value.summary !== "string" || typeof value.fromId !== "string") return undefined;
      // Pi sends a branch summary only when it has text.
      if (value.summary === "") return unsent(original);
      return sent(original, [text(BRANCH_SUMMARY_PREFIX + value.summary + BRANCH_SUMMARY_SUFFIX)], at);
    case "message":
      return isObject(value.message) ? messageStandIn(original, value.message) : undefined;
    default:
      return undefined;
  }
}

/** A `message` entry whose message chapter 10 refused: one of Pi's own roles, or a user message with images. */
function messageStandIn(original: PiOriginal, message: Json): SessionEntry | undefined {
  const at = message.timestamp;
  if (typeof at !== "number") return undefined;
  switch (message.role) {
    case "user":
      return Array.isArray(message.content) ? sent(original, message.content, at) : undefined;
    case "bashExecution": {
      const text = bashExecutionText(message);
      if (text === undefined) return undefined;
      return message.excludeFromContext === true ? unsent(original) : sent(original, [{ type: "text", text }], at);
    }
    case "custom":
      if (typeof message.customType !== "string") return undefined;
      return sent(original, typeof message.content === "string" ? [text(message.content)] : message.content, at);
    case "branchSummary":
      if (typeof message.summary !== "string") return undefined;
      return sent(original, [text(BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX)], at);
    case "compactionSummary":
      if (typeof message.summary !== "string") return undefined;
      return sent(original, [text(SUMMARY_PREFIX + message.summary + SUMMARY_SUFFIX)], at);
    default:
      return undefined;
  }
}

function text(value: string): TextContent {
  return { type: "text", text: value };
}

function isImage(block: unknown): block is ImageContent {
  return (
    isObject(block) &&
    block.type === "image" &&
    typeof block.data === "string" &&
    typeof block.mimeType === "string" &&
    /^image\/[\w.+-]+$/.test(block.mimeType)
  );
}

/**
 * A user message entry sending `content` (text and image blocks), checked by chapter 10 as the
 * text it holds; images ride along in `piContent`, in their place among the text.
 */
function sent(original: PiOriginal, content: unknown, timestamp: number): SessionEntry | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((block) => !isImage(block));
  const message: Json = { role: "user", content: texts, timestamp };
  if (texts.length < content.length) message.piContent = content;
  let entry: SessionEntry;
  try {
    entry = checkEntry({
      type: "message",
      id: original.id,
      parentId: original.parentId,
      timestamp: original.timestamp,
      message,
    });
  } catch {
    return undefined;
  }
  return { ...entry, pi: original } as unknown as SessionEntry;
}

function unsent(original: PiOriginal): SessionEntry {
  const entry: UnsentEntry = {
    type: "pi_unsent",
    id: original.id,
    parentId: original.parentId as string | null,
    timestamp: original.timestamp as string,
    pi: original,
  };
  return entry as unknown as SessionEntry;
}

/**
 * What a `bashExecution` message says in a request, as Pi's `convertToLlm` words it: the command,
 * its output in a fence (or "(no output)"), then cancellation, a non-zero exit code, and where the
 * truncated output was kept. Undefined when the message is not well formed.
 */
export function bashExecutionText(message: Json): string | undefined {
  const { command, output, exitCode, cancelled, truncated, fullOutputPath } = message;
  if (typeof command !== "string" || typeof output !== "string") return undefined;
  if (!(exitCode === undefined || exitCode === null || typeof exitCode === "number")) return undefined;
  const parts = [`Ran \`${command}\`\n${output === "" ? "(no output)" : `\`\`\`\n${output}\n\`\`\``}`];
  if (cancelled === true) parts.push("(command cancelled)");
  else if (typeof exitCode === "number" && exitCode !== 0) parts.push(`Command exited with code ${exitCode}`);
  if (truncated === true && typeof fullOutputPath === "string" && fullOutputPath !== "") {
    parts.push(`[Output truncated. Full output: ${fullOutputPath}]`);
  }
  return parts.join("\n\n");
}

/** How tree and export name a stand-in: Pi's entry type (and role), with its first words. */
export function piSummary(original: PiOriginal): { kind: string; words: string } {
  const message = isObject(original.message) ? original.message : undefined;
  switch (original.type) {
    case "custom":
      return { kind: "custom", words: `${String(original.customType)}（不发送）` };
    case "custom_message":
      return { kind: "custom_message", words: `${String(original.customType)}: ${contentWords(original.content)}` };
    case "branch_summary":
      return { kind: "branch_summary", words: `从 ${String(original.fromId)}：${String(original.summary)}` };
    default:
      if (message?.role === "bashExecution") {
        const unsentMark = message.excludeFromContext === true ? "（不发送）" : "";
        return { kind: "bashExecution", words: `$ ${String(message.command)}${unsentMark}` };
      }
      if (message?.role === "user") return { kind: "user", words: contentWords(message.content) };
      return { kind: String(message?.role ?? original.type), words: String(message?.summary ?? "") };
  }
}

function contentWords(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (isImage(block) ? `[图片 ${block.mimeType}]` : isObject(block) ? String(block.text ?? "") : ""))
    .join(" ");
}
