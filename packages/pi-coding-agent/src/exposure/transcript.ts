// Lab 15.3 · 记进 transcript: the Runtime asks, before every request, whether the tools it is about
// to declare differ from what the branch declares; only then does a tool-state entry go on the
// path, after the message that caused it. A resumed branch's activations are restored from the
// branch itself, so nothing but the session file carries them from one run to the next.
import type { ToolDefinition, ToolRegistry } from "@pi/core";
import type { SessionEntry } from "../session/entries.js";
import { ExposedRegistry } from "./registry.js";
import { declaredOn, recordsToolState, type ToolChange, toolChange } from "./tool-state.js";

/** What the Runtime keeps of the exposure: one question asked before every request. */
export interface ExposureRecorder {
  /** The change to record before a request declaring `declared` goes out on `path`, or undefined. */
  change(path: readonly SessionEntry[], declared: readonly ToolDefinition[]): ToolChange | undefined;
}

/**
 * The change a request needs: none while every tool is direct and the branch records no tool
 * state (the transcript is chapter 07's); otherwise the difference between what the branch
 * declares and what the request declares, if there is one.
 */
export function pendingChange(
  path: readonly SessionEntry[],
  declared: readonly ToolDefinition[],
  allDirect: boolean,
): ToolChange | undefined {
  if (allDirect && !recordsToolState(path)) return undefined;
  return toolChange(declaredOn(path), declared);
}

/** Activates the deferred tools `path` declares; a tool this run no longer has is left to the next change. */
export function restoreActivation(path: readonly SessionEntry[], registry: ExposedRegistry): string[] {
  return registry.activate(declaredOn(path).map((tool) => tool.name));
}

/** The Runtime's recorder for `tools`, opened on the `restored` branch (its activations restored first). */
export function exposureRecorder(tools: ToolRegistry, restored: readonly SessionEntry[]): ExposureRecorder {
  // A plain registry (chapters 13 and 14) has no exposure: every tool is direct, nothing is recorded.
  if (!(tools instanceof ExposedRegistry)) return { change: () => undefined };
  restoreActivation(restored, tools);
  const allDirect = tools.allDirect();
  return { change: (path, declared) => pendingChange(path, declared, allDirect) };
}
