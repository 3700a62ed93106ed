export * from "./entries.js";
export { type EntryReader, type RecoveredSession, recoverSession } from "./jsonl-recovery.js";
export { dropTornTail, JsonlSessionStore } from "./jsonl-store.js";
export { InMemorySessionStore, type SessionStore } from "./memory-store.js";
export { copyJson, parseEntry, parseHeader } from "./parse-entry.js";
export { INTERRUPTED_CALL, interruptedResult, messagesOnPath } from "./session-context.js";
export { indexById, pathTo } from "./session-tree.js";
