// Test helpers for chapter 13: a real session file in a real temp folder, a store whose writes
// wait until the test lets each one through (to see what the Runtime does before the disk has
// answered), scripted answers, chapter 09's Agent handing the Runtime bounded transcripts, and a
// Runtime opened on them.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type Model,
  ScriptedModel,
  type ToolCall,
  ToolRegistry,
  text,
} from "@pi/core";
import { agentEngine } from "../src/runtime/engine.js";
import type { EngineFactory, RuntimeParts } from "../src/runtime/types.js";
import { newHeader, type SessionEntry } from "../src/session/entries.js";
import { JsonlSessionStore } from "../src/session/jsonl-store.js";
import type { SessionStore } from "../src/session/memory-store.js";

export async function withDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pi-ch13-"));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A new session file in `dir`, holding `entries` (appended in order). */
export async function sessionFile(dir: string, entries: readonly SessionEntry[] = []): Promise<JsonlSessionStore> {
  const store = await JsonlSessionStore.create(path.join(dir, "session.jsonl"), newHeader(dir));
  for (const entry of entries) await store.append(entry);
  return store;
}

export function says(words: string): AssistantMessage {
  return assistantMessage([text(words)], "stop");
}

export function asks(callId: string, name: string, args: Record<string, unknown>): AssistantMessage {
  const call: ToolCall = { type: "toolCall", id: callId, name, arguments: args };
  return assistantMessage([text("我先看一下。"), call], "toolUse");
}

/** One tool, `look`, that answers with the path it was given. */
export function lookTools(): ToolRegistry {
  const tools = new ToolRegistry();
  tools.register({
    name: "look",
    description: "Looks at a path.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    execute: async (args) => ({ content: [text(`看到了 ${String(args.path)}`)] }),
  });
  return tools;
}

export function partsOf(tools: ToolRegistry = lookTools(), systemPrompt = "你是测试里的 agent。"): RuntimeParts {
  return { tools, systemPrompt, extensions: { loaded: [], skipped: [], diagnostics: [] } };
}

export function scripted(...turns: AssistantMessage[]): ScriptedModel {
  return new ScriptedModel(turns);
}

/** The messages of `model`'s request `n` (0-based), as it received them. */
export function sent(model: ScriptedModel, n: number): unknown[] {
  return (model.requests[n]?.messages ?? []).map((message) => message.content);
}

export interface HeldStore {
  store: SessionStore;
  /** Resolves with the oldest append waiting to be let through, once there is one. */
  arrival(): Promise<SessionEntry>;
  /** Lets the oldest waiting append through to the real store. */
  release(): void;
  /** The most appends that were ever in the real store's hands at once. */
  maxInFlight(): number;
}

/** `inner`, with each append held until release(): entries reach `inner` in the order released. */
export function held(inner: SessionStore): HeldStore {
  const waiting: { entry: SessionEntry; go: () => void }[] = [];
  const arrivals: ((entry: SessionEntry) => void)[] = [];
  let inFlight = 0;
  let most = 0;
  const store: SessionStore = {
    header: inner.header,
    entries: () => inner.entries(),
    leafId: () => inner.leafId(),
    has: (id) => inner.has(id),
    pathTo: (id) => inner.pathTo(id),
    messagesOnPath: (id) => inner.messagesOnPath(id),
    async append(entry) {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((go) => {
        waiting.push({ entry, go });
        arrivals.shift()?.(entry);
      });
      try {
        await inner.append(entry);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return {
    store,
    arrival: () =>
      new Promise((resolve) => {
        const oldest = waiting[0];
        if (oldest !== undefined) resolve(oldest.entry);
        else arrivals.push(resolve);
      }),
    release: () => waiting.shift()?.go(),
    maxInFlight: () => most,
  };
}

/** The next entry `hold` receives, or undefined when `run` (the prompt) settles first. */
async function nextEntryWhile(hold: HeldStore, run: Promise<unknown>): Promise<SessionEntry | undefined> {
  const settled = Symbol("settled");
  const next = await Promise.race([
    hold.arrival(),
    run.then(
      () => settled,
      () => settled,
    ),
  ]);
  return typeof next === "symbol" ? undefined : next;
}

/**
 * The next entry `hold` receives, while `run` (the prompt) is still going: a prompt that settles
 * first has written fewer entries than it should, and the test fails with `rule` instead of
 * waiting for an entry that never comes.
 */
export async function arrivalWhile(hold: HeldStore, run: Promise<unknown>, rule: string): Promise<SessionEntry> {
  const entry = await nextEntryWhile(hold, run);
  if (entry === undefined) assert.fail(rule);
  return entry;
}

/** Fails with `rule` when `hold` receives one more entry before `run` (the prompt) settles. */
export async function noArrivalBefore(hold: HeldStore, run: Promise<unknown>, rule: string): Promise<void> {
  if ((await nextEntryWhile(hold, run)) !== undefined) assert.fail(rule);
}

/** Lets every turn of microtasks and I/O callbacks queued so far run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `inner`, keeping every entry the Runtime asked it to append (whether the write succeeded or not). */
export function counting(inner: SessionStore): { store: SessionStore; asked: SessionEntry[] } {
  const asked: SessionEntry[] = [];
  const store: SessionStore = {
    header: inner.header,
    entries: () => inner.entries(),
    leafId: () => inner.leafId(),
    has: (id) => inner.has(id),
    pathTo: (id) => inner.pathTo(id),
    messagesOnPath: (id) => inner.messagesOnPath(id),
    append(entry) {
      asked.push(structuredClone(entry));
      return inner.append(entry);
    },
  };
  return { store, asked };
}

/** Element reads of one transcript past which the Runtime's recordUpTo is taken to run away. */
export const TRANSCRIPT_READS = 200;
let runawayCount = 0;

/** How many transcripts handed out by boundedAgent() were read past TRANSCRIPT_READS so far. */
export function runaways(): number {
  return runawayCount;
}

/** A copy of `messages` whose elements, once read TRANSCRIPT_READS times in all, throw instead of answering. */
function boundedTranscript(messages: readonly Message[]): Message[] {
  const copy: Message[] = [];
  let reads = 0;
  messages.forEach((message, index) => {
    Object.defineProperty(copy, index, {
      enumerable: true,
      configurable: true,
      get() {
        reads += 1;
        if (reads === TRANSCRIPT_READS + 1) runawayCount += 1;
        if (reads > TRANSCRIPT_READS)
          throw new Error(`transcript 的消息被读了 ${TRANSCRIPT_READS} 次还没停：recordUpTo 不结束`);
        return message;
      },
    });
  });
  return copy;
}

/**
 * Chapter 09's Agent (agentEngine()), handing the Runtime bounded transcripts (each request's
 * messages, each run's result): a recordUpTo whose loop never advances `recorded` is stopped by a
 * throw at the bound, so the test names the rule instead of spinning until the file's time limit.
 */
export function boundedAgent(): EngineFactory {
  const agent = agentEngine();
  return (options) => {
    const model: Model = {
      stream: (request, streamOptions) =>
        options.model.stream({ ...request, messages: boundedTranscript(request.messages) }, streamOptions),
    };
    const engine = agent({ ...options, model });
    return {
      ...engine,
      prompt: async (message) => {
        const result = await engine.prompt(message);
        return { ...result, messages: boundedTranscript(result.messages) };
      },
    };
  };
}
