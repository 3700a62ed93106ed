// The key tiny-pi was given never reaches what it shows or saves: every event on its way to the
// view (human or JSON) and every entry on its way to the session file has the key replaced by
// [redacted], wherever it came from (a tool's output, a server echoing it in an error).
import type { SessionStore } from "../session/memory-store.js";

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

/** `store` with every appended entry redacted; everything else as `store` answers. */
export function redactingStore(store: SessionStore, redact: Redact): SessionStore {
  return withAppend(store, (entry) => store.append(redactDeep(entry, redact)));
}

/** `store` with `append` replaced; every other question goes to `store` itself. */
export function withAppend(store: SessionStore, append: SessionStore["append"]): SessionStore {
  return {
    get header() {
      return store.header;
    },
    entries: () => store.entries(),
    leafId: () => store.leafId(),
    has: (id) => store.has(id),
    pathTo: (leaf) => store.pathTo(leaf),
    messagesOnPath: (leaf) => store.messagesOnPath(leaf),
    append,
  };
}
