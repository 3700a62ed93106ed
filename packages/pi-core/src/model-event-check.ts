import type { ToolCall } from "./messages.js";
import type { ModelEvent } from "./model.js";

/** Called where every member of a union has been handled: a member left out does not compile. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled value: ${JSON.stringify(value)}`);
}

/** One line per event for a trace, the way `npm run demo` prints them. */
export function eventLine(event: ModelEvent): string {
  switch (event.type) {
    case "start":
      return "start";
    case "text_delta":
      return `text_delta ${JSON.stringify(event.delta)}`;
    case "toolcall_delta":
      return `toolcall_delta ${event.delta}`;
    case "toolcall_end":
      return `toolcall_end ${event.toolCall.id} ${event.toolCall.name}`;
    case "done":
      return `done ${event.reason}`;
    case "error":
      return event.message === undefined ? `error ${event.reason}` : `error ${event.reason}: ${event.message}`;
    default:
      return unreachable(event);
  }
}

const DONE_REASONS: readonly unknown[] = ["stop", "toolUse", "length"];
const ERROR_REASONS: readonly unknown[] = ["error", "aborted"];

/**
 * Why `value` (e.g. from JSON.parse) is not a ModelEvent, or undefined when it is one. Nothing
 * from outside the program is used as a ModelEvent before this check says so.
 */
export function modelEventProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "expected an object";
  switch (value.type) {
    case "start":
      return undefined;
    case "text_delta":
    case "toolcall_delta":
      return typeof value.delta === "string" ? undefined : `"${value.type}" needs a string delta`;
    case "toolcall_end":
      return toolCallProblem(value.toolCall);
    case "done":
      return DONE_REASONS.includes(value.reason) ? undefined : '"done" needs reason "stop", "toolUse" or "length"';
    case "error":
      if (!ERROR_REASONS.includes(value.reason)) return '"error" needs reason "error" or "aborted"';
      return value.message === undefined || typeof value.message === "string"
        ? undefined
        : '"error" message must be a string';
    default:
      return `unknown event type ${JSON.stringify(value.type)}`;
  }
}

/** A type guard over modelEventProblem: true exactly when there is no problem. */
export function isModelEvent(value: unknown): value is ModelEvent {
  return modelEventProblem(value) === undefined;
}

function toolCallProblem(value: unknown): string | undefined {
  if (!isRecord(value) || value.type !== "toolCall") return '"toolcall_end" needs a toolCall object';
  const call = value as Partial<Record<keyof ToolCall, unknown>>;
  if (typeof call.id !== "string" || typeof call.name !== "string") return "toolCall needs a string id and name";
  return isRecord(call.arguments) ? undefined : "toolCall arguments must be an object";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
