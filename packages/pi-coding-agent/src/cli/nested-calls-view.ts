// A code call's nested tool calls (chapter 16) as the views show them: read from a tool result's
// details, checked field by field (a session file may hold anything).
import type { ToolResultMessage } from "@pi/core";
import type { NestedCall } from "../codemode/index.js";

const OUTCOMES = new Set(["ok", "error", "refused", "cancelled", "running"]);

/** The nested calls a result's details carry; none when it is not a code call's result. */
export function nestedCallsOf(result: ToolResultMessage): NestedCall[] {
  const calls = (result.details as { calls?: unknown } | undefined)?.calls;
  if (!Array.isArray(calls)) return [];
  return calls.filter(isNestedCall);
}

function isNestedCall(value: unknown): value is NestedCall {
  if (typeof value !== "object" || value === null) return false;
  const call = value as Record<string, unknown>;
  return (
    typeof call.id === "string" &&
    typeof call.name === "string" &&
    typeof call.arguments === "string" &&
    typeof call.text === "string" &&
    typeof call.outcome === "string" &&
    OUTCOMES.has(call.outcome) &&
    typeof call.start === "number" &&
    typeof call.end === "number"
  );
}

/** The argument that says what a nested call did: its path or command, else its JSON. */
export function nestedKeyArgument(call: NestedCall): string {
  try {
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    for (const key of ["path", "command"]) if (typeof args[key] === "string") return args[key];
  } catch {
    // arguments kept as a size notice: shown as they are
  }
  return call.arguments;
}
