// What the REPL talks to. On chapter 09's Agent: a line typed while a turn runs is steered into
// it, and lines still queued when a turn is aborted stay queued for the next prompt. The Agent
// runs its own package's loop on a fresh transcript, so a loop it does not drive (a learner's loop
// with the course's Agent, --loop) or a resumed session (--resume) goes turn by turn through
// runAgentLoop instead, lines typed meanwhile waiting their turn. --from practice/09 or later
// brings the learner's Agent together with the loop it drives.

import { type Message, userMessage } from "@pi/core";
import { Agent, type AgentEvent, type AgentRunResult, type LoopEvent, runAgentLoop } from "@pi/course";
import { brokenRun, runTurn, type TurnSetup } from "./run-turn.js";

export interface Conversation {
  /** Runs one prompt to its end. */
  prompt(text: string): Promise<AgentRunResult>;
  /** Steers a line into the running turn; absent when lines typed meanwhile must wait for the next turn. */
  steer?: (text: string) => void;
  /** Aborts the running turn. */
  abort(): void;
  /** Lines queued in the agent, carried into the next prompt. */
  queued(): number;
}

export interface AgentNotes {
  /** A transient model error is retried after `delayMs`. */
  retry(event: Extract<AgentEvent, { type: "retry" }>): void;
}

/** Whether the REPL can run on the Agent: the loop in use is the one the Agent drives, and no earlier transcript to carry. */
export function canUseAgent(setup: TurnSetup, history: Message[]): boolean {
  return setup.runLoop === (setup.agent?.drives ?? runAgentLoop) && history.length === 0;
}

/** The Agent's own events; every other one is a LoopEvent of the loop it runs. */
const AGENT_ONLY = new Set<AgentEvent["type"]>(["agent_start", "agent_end", "retry", "queued"]);

export function agentConversation(setup: TurnSetup, notes: AgentNotes): Conversation {
  const agent = new (setup.agent?.Agent ?? Agent)({
    model: setup.model,
    tools: setup.tools,
    systemPrompt: setup.systemPrompt,
    ...(setup.maxSteps !== undefined ? { maxSteps: setup.maxSteps } : {}),
  });
  agent.subscribe((event) => {
    if (event.type === "retry") notes.retry(event);
    else if (!AGENT_ONLY.has(event.type)) {
      const loopEvent = event as LoopEvent;
      setup.recorder.onEvent(loopEvent);
      setup.view(loopEvent);
    }
  });
  return {
    async prompt(text) {
      let result: AgentRunResult;
      try {
        result = await agent.prompt(userMessage(text));
      } catch (error) {
        throw brokenRun(setup.loopSource, error);
      }
      setup.recorder.finish(result.messages);
      return result;
    },
    steer: (text) => agent.steer(text),
    abort: () => agent.abort(),
    queued: () => agent.state.queued.steer.length + agent.state.queued.followUp.length,
  };
}

export function loopConversation(setup: TurnSetup, history: Message[]): Conversation {
  let messages = history;
  let controller: AbortController | undefined;
  return {
    async prompt(text) {
      controller = new AbortController();
      try {
        const result = await runTurn(setup, messages, text, controller.signal);
        messages = result.messages;
        return result;
      } finally {
        controller = undefined;
      }
    },
    abort: () => controller?.abort(),
    queued: () => 0,
  };
}
