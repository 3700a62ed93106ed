// What a durable Runtime does at each step (the Runtime calls these; its one append queue writes
// them in order): a user prompt and its generation task are one batch; the task is running once a
// request goes out, and a request goes out only after everything before it is committed; streamed
// text is committed as it arrives, in batches; a tool call's intent is committed before execute();
// the task is completed when the run ends, whatever its outcome (an error reply starts nothing new).
import {
  executeToolCall,
  type ModelStream,
  PushModelStream,
  type ToolCall,
  type ToolExecutionContext,
  type ToolRegistry,
  type ToolResultMessage,
  toolErrorResult,
} from "@pi/core";
import type { SessionEntry } from "../session/entries.js";
import { die, killHere } from "./kill-point.js";
import { PartialOutput } from "./partial-output.js";
import { type DurableRecord, durableEntry } from "./records.js";
import { isReplaySafe, type MaybeReplaySafe } from "./replay-safety.js";

export interface DurableDeps {
  /** Queues `entry` for writing after every earlier entry; it annotates the leaf (it does not become it). */
  append(entry: SessionEntry): void;
  newId(): string;
  leaf(): string | null;
  /**
   * Resolves once every append so far has been tried, written or not: it never rejects. A failed
   * write poisons the Runtime instead, and `failure()` says so: check it after awaiting this.
   */
  committed(): Promise<void>;
  /** The write failure that stopped the Runtime, if one did. */
  failure(): Error | undefined;
  tools: ToolRegistry;
}

export interface DurableSteps {
  /** Before the user message is appended: its task opens a batch of two. */
  userPrompt(): void;
  /** A recovered pending task goes on (no new user message). */
  continueTask(task: string): void;
  /** A model request: sent once everything before it is committed; its text committed as it streams. */
  stream(open: () => ModelStream): ModelStream;
  executeToolCall(call: ToolCall, context: ToolExecutionContext): Promise<ToolResultMessage>;
  /** The run ended, `outcome` as its reason. */
  completed(outcome: string): void;
}

export function durableSteps(deps: DurableDeps): DurableSteps {
  let task: string | undefined;
  let running = false;
  const record = (value: DurableRecord, batch?: number) => {
    const data = batch === undefined ? value : { ...value, batch };
    deps.append(durableEntry(data as DurableRecord, deps.leaf(), deps.newId()) as unknown as SessionEntry);
  };
  return {
    userPrompt() {
      task = deps.newId();
      running = false;
      record({ kind: "task", task, state: "pending" }, 2);
    },
    continueTask(id) {
      task = id;
      running = false;
    },
    stream(open) {
      if (task !== undefined && !running) {
        record({ kind: "task", task, state: "running" });
        running = true;
      }
      const current = task;
      const partial = new PartialOutput((text) => {
        if (current !== undefined) record({ kind: "partial", task: current, text });
      });
      const out = new PushModelStream();
      const pipe = async () => {
        await deps.committed();
        const failure = deps.failure();
        if (failure !== undefined) throw failure;
        const inner = open();
        for await (const event of inner) {
          if (event.type === "text_delta") {
            if (killHere("stream")) die();
            partial.add(event.delta);
          }
          out.push(event);
        }
        out.end(await inner.result());
      };
      pipe().catch((error: unknown) => out.fail(error));
      return out;
    },
    async executeToolCall(call, context) {
      const tool = deps.tools.get(call.name) as MaybeReplaySafe | undefined;
      record({ kind: "intent", callId: call.id, tool: call.name, replaySafe: isReplaySafe(tool) });
      await deps.committed();
      const failure = deps.failure();
      if (failure !== undefined)
        return toolErrorResult(call, `Tool call was not run: its intent was not saved (${failure})`);
      if (killHere("intent")) die();
      return executeToolCall(call, deps.tools, context);
    },
    completed(outcome) {
      if (task !== undefined) record({ kind: "task", task, state: "completed", outcome });
      task = undefined;
      running = false;
    },
  };
}
