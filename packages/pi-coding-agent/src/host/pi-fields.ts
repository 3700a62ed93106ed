// Upstream Pi reads every assistant entry's `api`, `provider`, `model` and `usage` (its footer adds
// `usage.cost.total`, its `get_session_stats` sums the tokens, its HTML export lists the models):
// an assistant entry without them crashes Pi's interactive mode. The Runtime's messages carry only
// what chapter 03 teaches (`usage: {input, output}` when the server reported it); on the way to
// the session file each assistant entry gets Pi's fields, zeros where nothing is known. Cost is
// zero: tiny-pi has no price list.
import type { SessionEntry } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";
import { withAppend } from "./redacting.js";

/** Who answered: Pi's `api`, `provider` and `model` fields of an assistant message. */
export interface ModelIdentity {
  api: string;
  provider: string;
  model: string;
}

/** Pi's `usage` of an assistant message. */
export interface PiUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

type Json = Record<string, unknown>;

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** `usage` (ours, Pi's, or none) in Pi's shape: known counts kept, the rest zero. */
export function piUsage(usage: unknown): PiUsage {
  const known = (typeof usage === "object" && usage !== null ? usage : {}) as Json;
  const input = count(known.input);
  const output = count(known.output);
  const cacheRead = count(known.cacheRead);
  const cacheWrite = count(known.cacheWrite);
  const cost = (typeof known.cost === "object" && known.cost !== null ? known.cost : {}) as Json;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: count(known.totalTokens) || input + output + cacheRead + cacheWrite,
    cost: {
      input: count(cost.input),
      output: count(cost.output),
      cacheRead: count(cost.cacheRead),
      cacheWrite: count(cost.cacheWrite),
      total: count(cost.total),
    },
  };
}

/** `entry` with Pi's assistant fields when it is an assistant message; fields already there are kept. */
export function withPiFields(entry: SessionEntry, identity: ModelIdentity): SessionEntry {
  if (entry.type !== "message" || entry.message.role !== "assistant") return entry;
  const message = entry.message as unknown as Json;
  return {
    ...entry,
    message: {
      ...entry.message,
      api: typeof message.api === "string" ? message.api : identity.api,
      provider: typeof message.provider === "string" ? message.provider : identity.provider,
      model: typeof message.model === "string" ? message.model : identity.model,
      usage: piUsage(message.usage),
    } as typeof entry.message,
  };
}

/** `store` with Pi's assistant fields added to every assistant entry appended. */
export function piFieldsStore(store: SessionStore, identity: ModelIdentity): SessionStore {
  return withAppend(store, (entry) => store.append(withPiFields(entry, identity)));
}
