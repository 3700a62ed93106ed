// Feeds a session store from a run's LoopEvents, in transcript order: the user message, each
// assistant as it is complete, and a tool batch's results once the batch is whole, in the order
// the assistant declared its calls (tool_end arrives in completion order; the transcript does not).

import { type Message, type ToolResultMessage, toolCallsOf } from "@pi/core";
import type { AgentRunResult, LoopEvent } from "@pi/course";
import type { SessionStore } from "./session-store.js";

export interface SessionRecorder {
  record(message: Message): void;
  onEvent(event: LoopEvent): void;
  /** Appends whatever the run's messages hold past what was recorded; `base` = messages before the run. */
  finish(result: AgentRunResult, base: number): void;
}

export function sessionRecorder(store: SessionStore): SessionRecorder {
  let recorded = 0;
  let batch: string[] = [];
  const results = new Map<string, ToolResultMessage>();
  const append = (messages: Message[]) => {
    store.append(messages);
    recorded += messages.length;
  };
  return {
    record: (message) => append([message]),
    onEvent(event) {
      if (event.type === "assistant_message") {
        append([event.message]);
        batch = toolCallsOf(event.message).map((call) => call.id);
        results.clear();
      } else if (event.type === "tool_end" || event.type === "tool_skipped") {
        results.set(event.result.toolCallId, event.result);
        if (batch.length > 0 && batch.every((id) => results.has(id))) {
          append(batch.map((id) => results.get(id) as ToolResultMessage));
          batch = [];
        }
      }
    },
    finish(result, base) {
      append(result.messages.slice(base + recorded));
    },
  };
}
