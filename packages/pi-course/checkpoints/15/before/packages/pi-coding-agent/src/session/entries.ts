// The session file's vocabulary, in upstream Pi's format version 3: one header line, then one
// entry per line. Every entry has an 8-hex-digit `id`, a `parentId` (null for a root) and an ISO
// `timestamp`; `parentId` links the entries into a tree, and the leaf is where the conversation
// stands. The types here are the ones the course reads and writes so far (`compaction` joined in
// chapter 11); `branch_summary`, `custom` and `custom_message` belong to later chapters.
import { randomBytes, randomUUID } from "node:crypto";
import type { Message } from "@pi/core";

export const SESSION_VERSION = 3;

export interface SessionHeader {
  type: "session";
  version: 3;
  /** A UUID. */
  id: string;
  timestamp: string;
  cwd: string;
  /** The file this session was forked from. */
  parentSession?: string;
}

export interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: Message;
}

/** A bookmark on `targetId`; without `label`, it clears the entry's label. */
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

/** The session's display name. */
export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name: string;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** The strict, structured part of a summary (our entries): `details.structured` of a compaction entry. */
export interface CompactionSummary {
  goal: string;
  constraints: string[];
  done: string[];
  inProgress: string[];
  blocked: string[];
  decisions: string[];
  nextSteps: string[];
  criticalContext: string[];
}

export interface CompactionFiles {
  readFiles: string[];
  modifiedFiles: string[];
}

/**
 * Pi's `compaction` entry: from here on the context is `summary` (the text the model sees) plus the
 * branch from `firstKeptEntryId`. Ours render `summary` from `details.structured`; Pi writes
 * `details: { readFiles, modifiedFiles }` and a free `summary`.
 */
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  /** Tokens of the context before this compaction: a non-negative integer. */
  tokensBefore: number;
  details?: CompactionFiles & { structured?: CompactionSummary };
  /** Pi marks a compaction an extension produced. */
  fromHook?: boolean;
}

export type SessionEntry =
  | MessageEntry
  | LabelEntry
  | SessionInfoEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry;

/** Entry types of Pi's format that a later chapter teaches: named, never guessed at. */
export const LATER_ENTRY_TYPES: ReadonlySet<string> = new Set(["branch_summary", "custom", "custom_message"]);

export const ENTRY_ID = /^[0-9a-f]{8}$/;

/** A fresh 8-hex-digit id that `taken` does not hold. */
export function newEntryId(taken: (id: string) => boolean = () => false): string {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!taken(id)) return id;
  }
}

export function newHeader(cwd: string, parentSession?: string, now: Date = new Date()): SessionHeader {
  const header: SessionHeader = {
    type: "session",
    version: SESSION_VERSION,
    id: randomUUID(),
    timestamp: now.toISOString(),
    cwd,
  };
  if (parentSession !== undefined) header.parentSession = parentSession;
  return header;
}

/** A message entry under `parentId`. */
export function messageEntry(
  message: Message,
  parentId: string | null,
  id: string = newEntryId(),
  now: Date = new Date(),
): MessageEntry {
  return { type: "message", id, parentId, timestamp: now.toISOString(), message };
}
