// Upstream Pi reads every assistant entry's `api`, `provider`, `model` and `usage` (its footer adds
// `usage.cost.total`, its `get_session_stats` sums the tokens, its HTML export lists the models):
// an assistant entry without them crashes Pi's interactive mode. The Runtime's messages carry only
// what chapter 03 teaches (`usage: {input, output}` when the server reported it); on the way to
// the session file each assistant entry gets Pi's fields, zeros where nothing is known. Cost comes
// from the model catalogue's prices (dollars per million tokens), zero where it names none.
import type { ModelPrices } from "../models/index.js";
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

/** What `provider/model` costs per million tokens, when the catalogue says. */
export type PriceOf = (provider: string, model: string) => ModelPrices | undefined;

/** `usage` with its cost from `prices` (dollars per million tokens), when it states none of its own. */
export function pricedUsage(usage: PiUsage, prices: ModelPrices | undefined): PiUsage {
  if (prices === undefined || usage.cost.total > 0) return usage;
  const input = (usage.input * prices.input) / 1e6;
  const output = (usage.output * prices.output) / 1e6;
  const cacheRead = (usage.cacheRead * prices.cacheRead) / 1e6;
  const cacheWrite = (usage.cacheWrite * prices.cacheWrite) / 1e6;
  return { ...usage, cost: { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite } };
}

/** `entry` with Pi's assistant fields when it is an assistant message; fields already there are kept. */
export function withPiFields(entry: SessionEntry, identity: ModelIdentity, prices?: PriceOf): SessionEntry {
  if (entry.type !== "message" || entry.message.role !== "assistant") return entry;
  const message = entry.message as unknown as Json;
  const provider = typeof message.provider === "string" ? message.provider : identity.provider;
  const model = typeof message.model === "string" ? message.model : identity.model;
  return {
    ...entry,
    message: {
      ...entry.message,
      api: typeof message.api === "string" ? message.api : identity.api,
      provider,
      model,
      usage: pricedUsage(piUsage(message.usage), prices?.(provider, model)),
    } as typeof entry.message,
  };
}

/** `store` with Pi's assistant fields added to every assistant entry appended; `identity` names who answered an unmarked reply. */
export function piFieldsStore(store: SessionStore, identity: () => ModelIdentity, prices?: PriceOf): SessionStore {
  return withAppend(store, (entry) => store.append(withPiFields(entry, identity(), prices)));
}
