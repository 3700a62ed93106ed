// One turn on runAgentLoop (the course's or the learner's): the prompt as a user message after
// the conversation so far, every event shown and recorded in the session.

import { type Message, type Model, type ToolRegistry, userMessage } from "@pi/core";
import type { AgentRunResult, LoopEvent } from "@pi/course";
import { RunError } from "./errors.js";
import type { AgentClass, RunAgentLoop } from "./learner-code.js";
import type { SessionRecorder } from "./session-recorder.js";

export interface TurnSetup {
  runLoop: RunAgentLoop;
  /** Says whose loop it is, for the one line a loop that breaks its contract gives. */
  loopSource: string;
  /** The model, already recording into the session. */
  model: Model;
  tools: ToolRegistry;
  systemPrompt: string;
  /** Absent: the loop's default. */
  maxSteps?: number;
  view: (event: LoopEvent) => void;
  recorder: SessionRecorder;
  /** A learner's chapter 09 Agent (--from) and the loop it drives; absent: the course's Agent on the course's loop. */
  agent?: { Agent: AgentClass; drives: RunAgentLoop };
}

export async function runTurn(
  setup: TurnSetup,
  history: Message[],
  prompt: string,
  signal: AbortSignal,
): Promise<AgentRunResult> {
  let result: AgentRunResult;
  try {
    result = await setup.runLoop({
      model: setup.model,
      context: { systemPrompt: setup.systemPrompt, messages: [...history, userMessage(prompt)] },
      tools: setup.tools,
      signal,
      ...(setup.maxSteps !== undefined ? { maxSteps: setup.maxSteps } : {}),
      onEvent: (event) => {
        setup.recorder.onEvent(event);
        setup.view(event);
      },
    });
  } catch (error) {
    throw brokenRun(setup.loopSource, error);
  }
  setup.recorder.finish(result.messages);
  return result;
}

/** A loop run that rejected instead of ending: the loop or the model broke the contract. */
export function brokenRun(loopSource: string, error: unknown): RunError {
  const message = error instanceof Error ? error.message : String(error);
  return new RunError(
    `${loopSource}的 runAgentLoop 没有正常结束（${message.split("\n")[0]}）：loop 或模型违反了第 07 章的约定，请对照 runAgentLoop 的失败语义检查。`,
  );
}
