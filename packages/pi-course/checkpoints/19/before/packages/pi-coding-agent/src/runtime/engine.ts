// The two engines a Runtime can drive. agentEngine: chapter 09's Agent (steering, retries,
// follow-ups). loopEngine: chapter 07's runAgentLoop turn by turn, for a loop no Agent drives
// (tiny-pi --loop); it keeps the transcript across prompts and cannot steer. Both start empty:
// restored history reaches the model through the context adapter, never through the engine.
import type { Message } from "@pi/core";
import { Agent, type AgentEvent, type AgentListener, runAgentLoop } from "@pi/course";
import type { EngineFactory, RuntimeEngine } from "./types.js";

export function agentEngine(AgentClass: typeof Agent = Agent): EngineFactory {
  return (options) => {
    const agent = new AgentClass({
      model: options.model,
      tools: options.tools,
      systemPrompt: options.systemPrompt,
      ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    });
    return {
      prompt: (message) => agent.prompt(message),
      subscribe: (listener) => agent.subscribe(listener),
      steer: (text) => agent.steer(text),
      abort: () => agent.abort(),
      queued: () => agent.state.queued.steer.length + agent.state.queued.followUp.length,
    };
  };
}

export function loopEngine(runLoop: typeof runAgentLoop = runAgentLoop): EngineFactory {
  return (options): RuntimeEngine => {
    let messages: Message[] = [];
    let controller: AbortController | undefined;
    let listeners: AgentListener[] = [];
    const emit = (event: AgentEvent) => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A listener's failure is its own, as with the Agent.
        }
      }
    };
    return {
      async prompt(message) {
        controller = new AbortController();
        emit({ type: "agent_start" });
        try {
          const result = await runLoop({
            model: options.model,
            tools: options.tools,
            context: { systemPrompt: options.systemPrompt, messages: [...messages, structuredClone(message)] },
            signal: controller.signal,
            ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
            onEvent: emit,
          });
          messages = result.messages;
          emit({ type: "agent_end", result });
          return result;
        } finally {
          controller = undefined;
        }
      },
      subscribe(listener) {
        listeners = [...listeners, listener];
        return () => {
          listeners = listeners.filter((entry) => entry !== listener);
        };
      },
      abort: () => controller?.abort(),
    };
  };
}
