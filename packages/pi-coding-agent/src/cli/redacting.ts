// The key tiny-pi was given never reaches what it shows or saves: every event on its way to the
// view (human or --json) and every message on its way to the session file has the key replaced
// by [redacted], wherever it came from (a tool's output, a server echoing it in an error).
import type { Message } from "@pi/core";
import type { LoopEvent } from "@pi/course";
import type { SessionStore } from "./session-store.js";

export type Redact = (text: string) => string;

/** `value` with `redact` applied to every string inside it; the original is left alone. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T;
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = redactDeep(item, redact);
    return copy as T;
  }
  return value;
}

export function redactingView(view: (event: LoopEvent) => void, redact: Redact): (event: LoopEvent) => void {
  return (event) => view(redactDeep(event, redact));
}

export function redactingStore(store: SessionStore, redact: Redact): SessionStore {
  return {
    get file() {
      return store.file;
    },
    append: (messages: Message[]) => store.append(redactDeep(messages, redact)),
    flushed: () => store.flushed(),
    tree: () => store.tree(),
    branch: (id) => store.branch(id),
    path: () => store.path(),
    appendEntry: (entry) => store.appendEntry(redactDeep(entry, redact)),
    newId: () => store.newId(),
  };
}
