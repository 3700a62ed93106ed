// The Runtime: one Agent (or loop), one active path, one write queue. Every message the engine's
// transcript gains becomes an entry under the leaf, in transcript order: what a request carries
// past the recorded part is recorded before it goes out, each answer as it completes (a failed
// one only if it stays: the Agent's retry takes it out), and the rest when the prompt ends.
// Entries are written one at a time, in order; a prompt resolves only after its own are on
// disk. A write that fails poisons the Runtime: nothing after it is written, and every later
// prompt is refused in one line, so nothing half-written is ever presented as saved.
import { type Message, type Model, type UserMessage, userMessage } from "@pi/core";
import type { AgentEvent, AgentRunResult } from "@pi/course";
import { toolStateEntry } from "../exposure/tool-state.js";
import { exposureRecorder } from "../exposure/transcript.js";
import { messageEntry, newEntryId, type SessionEntry } from "../session/entries.js";
import { activePath, contextAdapter } from "./context-adapter.js";
import { agentEngine } from "./engine.js";
import {
  type CompactionTarget,
  type PromptOptions,
  type RuntimeCore,
  RuntimeError,
  type RuntimeEvent,
  type RuntimeListener,
  type RuntimeOptions,
} from "./types.js";

/** `restored`: the path openRuntime copied (the Runtime owns it from now on). */
export function createRuntime(options: RuntimeOptions, restored: SessionEntry[]): RuntimeCore {
  const { session } = options;
  /** The active path as written: the restored history, then each entry once its write completed. */
  const persisted: SessionEntry[] = restored;
  /** Entries appended but not written yet, oldest first. */
  const queued: SessionEntry[] = [];
  const ids = new Set(session.entries().map((entry) => entry.id));
  let leaf: string | null = restored.at(-1)?.id ?? null;
  let writes: Promise<void> = Promise.resolve();
  let poison: RuntimeError | undefined;
  let closed = false;
  let running: Promise<AgentRunResult> | undefined;
  /** How many messages of the engine's transcript are entries already. */
  let recorded = 0;
  const base = options.parts.systemPrompt;
  let systemPrompt = base;
  let listeners: RuntimeListener[] = [];
  /** Chapter 15: the tools a request declares are recorded on the path whenever they change. */
  const exposure = exposureRecorder(options.parts.tools, restored);

  const emit = (event: RuntimeEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A presentation's failure is its own: the run and the other listeners go on.
      }
    }
  };

  const newId = () => {
    const id = newEntryId((candidate) => ids.has(candidate));
    ids.add(id);
    return id;
  };

  /** The one place an entry joins the path: it becomes the leaf and is written after every earlier one. */
  const append = (entry: SessionEntry) => {
    ids.add(entry.id);
    leaf = entry.id;
    queued.push(entry);
    writes = writes.then(async () => {
      if (poison !== undefined) return;
      try {
        await session.append(entry);
        persisted.push(queued.shift() as SessionEntry);
      } catch (error) {
        const cause = String((error as Error)?.message ?? error).split("\n")[0];
        poison = new RuntimeError(
          `会话写入失败（${cause}）：条目 ${entry.id} 起都没有保存，这个 Runtime 不再接受提示；从已保存的条目重新打开会话再继续。`,
          { cause: error },
        );
      }
    });
  };

  const recordMessage = (message: Message) => {
    // The file holds what JSON.stringify writes: a field set to undefined is simply absent.
    append(messageEntry(JSON.parse(JSON.stringify(message)) as Message, leaf, newId()));
    recorded += 1;
  };
  const recordUpTo = (transcript: readonly Message[]) => {
    for (const message of transcript.slice(recorded)) recordMessage(message);
  };

  const target: CompactionTarget = {
    persisted: () => persisted,
    queued: () => queued,
    path: () => activePath(target),
    appendEntry: (entry) => append(structuredClone(entry)),
    newId,
  };

  const adapted = contextAdapter(options.model, target, {
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(options.compact !== undefined ? { compact: options.compact } : {}),
    ...(options.code?.buildContext !== undefined ? { buildContext: options.code.buildContext } : {}),
  });
  const recording: Model = {
    stream(request, streamOptions) {
      recordUpTo(request.messages);
      const change = exposure.change(activePath(target), request.tools);
      if (change !== undefined) append(toolStateEntry(change, leaf, newId()));
      return adapted.stream({ ...request, systemPrompt }, streamOptions);
    },
  };
  const engine = (options.engine ?? agentEngine())({
    model: recording,
    tools: options.parts.tools,
    systemPrompt: base,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
  });
  engine.subscribe((event: AgentEvent) => {
    if (event.type === "assistant_message" && event.message.stopReason !== "error") recordMessage(event.message);
    emit(event);
  });

  /** Patched only when it changes: the same text twice is no change, and no event. */
  const setSystemPrompt = (text: string) => {
    if (text === systemPrompt) return;
    systemPrompt = text;
    emit({ type: "system_prompt", systemPrompt: text });
  };

  /** Why a prompt cannot start now, if it cannot: the same poison every time, once a write failed. */
  const refusal = (): RuntimeError | undefined => {
    if (poison !== undefined) return poison;
    if (closed) return new RuntimeError("这个 Runtime 已经 dispose()：不再接受提示；要继续，在会话上重新打开一个。");
    if (running !== undefined) {
      return new RuntimeError("上一个提示还没有结束：用 steer() 把这一行送进正在运行的一轮，或等它结束再提示。");
    }
    return undefined;
  };

  const run = async (message: UserMessage, patch: string | undefined): Promise<AgentRunResult> => {
    setSystemPrompt(patch ?? base);
    let result: AgentRunResult;
    try {
      result = await engine.prompt(message);
      recordUpTo(result.messages);
    } finally {
      setSystemPrompt(base);
      await writes;
    }
    if (poison !== undefined) throw poison;
    return result;
  };

  return {
    prompt(input, promptOptions?: PromptOptions) {
      const refused = refusal();
      if (refused !== undefined) return Promise.reject(refused);
      const message = typeof input === "string" ? userMessage(input) : structuredClone(input);
      const current = run(message, promptOptions?.systemPrompt);
      running = current;
      const settle = () => {
        running = undefined;
      };
      current.then(settle, settle);
      return current;
    },
    steer(text) {
      if (engine.steer === undefined || running === undefined) return false;
      engine.steer(text);
      return true;
    },
    abort: () => engine.abort(),
    queued: () => engine.queued?.() ?? 0,
    subscribe(listener) {
      listeners = [...listeners, listener];
      return () => {
        listeners = listeners.filter((entry) => entry !== listener);
      };
    },
    async flush() {
      await writes;
      if (poison !== undefined) throw poison;
    },
    async dispose() {
      closed = true;
      await running?.catch(() => undefined);
      await writes;
      if (poison !== undefined) throw poison;
    },
    messages: () =>
      [...persisted, ...queued].flatMap((entry) => (entry.type === "message" ? [structuredClone(entry.message)] : [])),
    compaction: target,
    leafId: () => leaf,
    failure: () => poison?.message,
    systemPrompt: () => systemPrompt,
    engine,
    session,
    model: options.model,
  };
}
