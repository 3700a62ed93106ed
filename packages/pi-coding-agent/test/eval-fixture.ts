// Chapter 14's tests run the harness on a real agent: chapter 07's loop with chapter 08's tools on
// the run's temp workspace. `loopAgent` records what the runner asked of it, in order, so a test
// can see prepare, execute, collect, dispose and cleanup happen (or not).
import { existsSync, readFileSync } from "node:fs";
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type Model,
  ScriptedModel,
  type ToolCall,
  ToolRegistry,
  text,
  userMessage,
} from "@pi/core";
import { runAgentLoop } from "@pi/course";
import type { AgentRun, AgentSetup, AgentUnderTest, EvalTask } from "../src/eval/types.js";
import { createWorkspaceTools } from "../src/workspace-tools.js";

export const SECRET = "sk-eval-秘密-4242";

export interface AgentLog {
  events: string[];
  setups: AgentSetup[];
  /** Each run's session file as the agent found it when opened (null: none). */
  sessions: (string | null)[];
  /** The live transcript of the latest run. */
  live: Message[];
}

export interface Faults {
  prompt?: boolean;
  activePath?: boolean;
  dispose?: boolean;
}

export function loopAgent(log: AgentLog, faults: Faults = {}): AgentUnderTest {
  return async (setup) => {
    log.events.push("open");
    log.setups.push(setup);
    log.sessions.push(existsSync(setup.sessionFile) ? readFileSync(setup.sessionFile, "utf8") : null);
    const tools = new ToolRegistry();
    for (const tool of createWorkspaceTools(setup.workspace)) tools.register(tool);
    const messages: Message[] = [];
    log.live = messages;
    const run: AgentRun = {
      async prompt(line) {
        log.events.push("prompt");
        if (faults.prompt) throw new Error(`模型报错：${SECRET}`);
        const result = await runAgentLoop({
          model: setup.model,
          context: { messages: [...messages, userMessage(line)] },
          tools,
        });
        messages.splice(0, messages.length, ...result.messages);
      },
      async activePath() {
        log.events.push("collect");
        if (faults.activePath) throw new Error(`读会话失败：${setup.sessionFile}`);
        return messages;
      },
      async dispose() {
        log.events.push("dispose");
        if (faults.dispose) throw new Error("dispose 失败");
      },
    };
    return run;
  };
}

export const newLog = (): AgentLog => ({ events: [], setups: [], sessions: [], live: [] });

export function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

export function turn(content: (ToolCall | string)[], usage?: { input: number; output: number }): AssistantMessage {
  const blocks = content.map((block) => (typeof block === "string" ? text(block) : block));
  const message = assistantMessage(blocks, blocks.some((b) => b.type === "toolCall") ? "toolUse" : "stop", 1);
  if (usage !== undefined) message.usage = usage;
  return message;
}

/** A task whose model is a new ScriptedModel of `turns` on every run. */
export function scriptedTask(name: string, turns: () => AssistantMessage[], extra: Partial<EvalTask> = {}): EvalTask {
  return {
    name,
    fixture: {},
    prompts: ["开始"],
    model: (): Model => new ScriptedModel(turns()),
    declares: [],
    judge: () => ({ success: true, unmet: [] }),
    ...extra,
  };
}
