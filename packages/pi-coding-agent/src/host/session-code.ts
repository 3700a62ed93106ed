// The chapter 10 code tiny-pi's sessions run on: the course's, or a learner's from a practice
// directory (--from, learner-code.ts). session-store.ts and session-file.ts take it as a value,
// so a learner's JsonlSessionStore writes, recovers and projects the session file. The course's
// reads every line with readEntry (chapter 10's checkEntry, then what Pi writes: pi-entries.ts);
// a learner's reads with their own checkEntry only.

import { checkDurableEntry, isDurableEntry } from "../durable/records.js";
import type { SessionEntry } from "../session/entries.js";
import { type EntryReader, recoverSession } from "../session/jsonl-recovery.js";
import { JsonlSessionStore } from "../session/jsonl-store.js";
import { interruptedResult } from "../session/session-context.js";
import { pathTo } from "../session/session-tree.js";
import { courseDurableCode, type DurableCode } from "./durable-code.js";
import { readPiEntry } from "./pi-entries.js";

/** A line of a session file as the course reads it: chapter 19's durable records as they are, then Pi's. */
export function readCourseEntry(value: unknown): SessionEntry {
  return isDurableEntry(value) ? (checkDurableEntry(value) as unknown as SessionEntry) : readPiEntry(value);
}

export interface SessionCode {
  JsonlSessionStore: Pick<typeof JsonlSessionStore, "create" | "open">;
  recoverSession: typeof recoverSession;
  pathTo: typeof pathTo;
  interruptedResult: typeof interruptedResult;
  /** How each line of a file becomes an entry; undefined: the code's own checkEntry. */
  readEntry?: EntryReader;
  /** Chapter 19's durable layer the sessions are written through; undefined: not durable (a learner's code before chapter 19). */
  durable?: DurableCode;
}

export const courseSessionCode: SessionCode = {
  JsonlSessionStore,
  recoverSession,
  pathTo,
  interruptedResult,
  readEntry: readCourseEntry,
  durable: courseDurableCode,
};
