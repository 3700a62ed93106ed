// One turn: the prompt as a user message after the conversation so far, run through the loop
// (the course's runAgentLoop or the learner's), every event shown and recorded in the session.

import { type Message, type Model, type ToolRegistry, userMessage } from "@pi/core";
import type { AgentRunResult, LoopEvent } from "@pi/course";
import { RunError } from "./errors.js";
import type { RunAgentLoop } from "./learner-tree.js";
import { sessionRecorder } from "./session-recorder.js";
import type { SessionStore } from "./session-store.js";

export interface TurnSetup {
  runLoop: RunAgentLoop;
  /** Says whose loop it is, for the one line a loop that breaks its contract gives. */
  loopSource: string;
  model: Model;
  tools: ToolRegistry;
  systemPrompt: string;
  /** Absent: the loop's default. */
  maxSteps?: number;
  view: (event: LoopEvent) => void;
  session: SessionStore;
}

export async function runTurn(
  setup: TurnSetup,
  history: Message[],
  prompt: string,
  signal: AbortSignal,
): Promise<AgentRunResult> {
  const user = userMessage(prompt);
  const recorder = sessionRecorder(setup.session);
  recorder.record(user);
  let result: AgentRunResult;
  try {
    result = await setup.runLoop({
      model: setup.model,
      context: { systemPrompt: setup.systemPrompt, messages: [...history, user] },
      tools: setup.tools,
      signal,
      ...(setup.maxSteps !== undefined ? { maxSteps: setup.maxSteps } : {}),
      onEvent: (event) => {
        recorder.onEvent(event);
        setup.view(event);
      },
    });
  } catch (error) {
    throw new RunError(
      `${setup.loopSource} 的 runAgentLoop 没有正常结束（${firstLine(error)}）：这是 loop 或模型违反了约定，不是你的输入问题。`,
    );
  }
  recorder.finish(result, history.length);
  return result;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
