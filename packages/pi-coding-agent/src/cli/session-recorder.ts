// Feeds a session store in transcript order, whoever drives the loop (runAgentLoop turn by turn,
// or the Agent with its steering and retries). Each model request carries the transcript so far,
// so what it holds past the saved part is saved before the request goes out: tool results and
// steered messages land exactly where the loop put them. Each answer is saved as it completes,
// except a failed one, which a retry takes out again: the end of the run saves it if it stays.

import type { Message, Model } from "@pi/core";
import type { LoopEvent } from "@pi/course";
import type { SessionStore } from "./session-store.js";

export interface SessionRecorder {
  /** `model`, saving the transcript of every request before it is sent. */
  recording(model: Model): Model;
  onEvent(event: LoopEvent | { type: string }): void;
  /** Saves whatever the finished run's transcript holds past the saved part. */
  finish(messages: Message[]): void;
  /** After the leaf moved (REPL /branch): the conversation now starts with `saved` messages the store holds. */
  rebase(saved: number): void;
}

/** `saved`: how many messages of the conversation the store already holds (a resumed session's). */
export function sessionRecorder(store: SessionStore, saved: number): SessionRecorder {
  const saveUpTo = (messages: Message[]) => {
    if (messages.length <= saved) return;
    store.append(messages.slice(saved));
    saved = messages.length;
  };
  return {
    recording: (model) => ({
      stream(request, options) {
        saveUpTo(request.messages);
        return model.stream(request, options);
      },
    }),
    onEvent(event) {
      if (!isAnswer(event) || event.message.stopReason === "error") return;
      store.append([event.message]);
      saved += 1;
    },
    finish: saveUpTo,
    rebase(count) {
      saved = count;
    },
  };
}

function isAnswer(event: LoopEvent | { type: string }): event is Extract<LoopEvent, { type: "assistant_message" }> {
  return event.type === "assistant_message";
}
