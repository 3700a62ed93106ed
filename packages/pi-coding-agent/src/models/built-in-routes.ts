// tiny-pi's built-in virtual model: one model for the conversation, optionally a cheaper one for
// compaction summaries, and models to fall back to, in order, when the one before cannot serve.
import type { Route, VirtualModel } from "./catalogue.js";

export interface BuiltInRoute {
  /** The physical id that serves prompts and continuations. */
  model: string;
  /** The physical id that writes compaction summaries; absent: `model`. */
  compaction?: string;
  /** Physical ids tried in order when the one before answers 5xx or cannot be reached. */
  fallback?: readonly string[];
}

export function builtInRoute(spec: BuiltInRoute): Route {
  const conversation = [spec.model, ...(spec.fallback ?? [])];
  const summaries = spec.compaction === undefined ? conversation : [spec.compaction, ...(spec.fallback ?? [])];
  return (request) => (request.reason === "compaction" ? summaries : conversation);
}

/** What the start line says a built-in route does. */
export function describeRoute(spec: BuiltInRoute): string {
  const fallback = spec.fallback?.length ? `（失败转 ${spec.fallback.join(" → ")}）` : "";
  const compaction = spec.compaction !== undefined ? `；压缩摘要 → ${spec.compaction}` : "";
  return `对话 → ${spec.model}${fallback}${compaction}`;
}

export function builtInVirtualModel(id: string, spec: BuiltInRoute): VirtualModel {
  return { id, route: builtInRoute(spec), describe: describeRoute(spec) };
}
