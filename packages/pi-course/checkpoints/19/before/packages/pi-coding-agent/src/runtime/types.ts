// Chapter 13's vocabulary: what a Runtime is opened with, what it shows, and the one error it
// gives. The Runtime is the composition root: the only object a presentation (print, JSON,
// interactive, tiny-pi's REPL) talks to. It owns the Agent, the session's active path and the
// write queue, and exposes none of them, so nothing can prompt or persist around it.
import type { Message, Model, ToolRegistry, UserMessage } from "@pi/core";
import type { AgentEvent, AgentRunResult } from "@pi/course";
import type { BuiltContext, ContextBudget } from "../compaction/index.js";
import type { ExtensionFactory, LoadedExtensions } from "../extensions/index.js";
import type { Resource } from "../resources/index.js";
import type { SessionEntry } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";

/** One Chinese line naming the fix; `cause` keeps the underlying error. */
export class RuntimeError extends Error {
  override readonly name = "RuntimeError";
}

/** What the Runtime drives: chapter 09's Agent (engine.ts's agentEngine) or chapter 07's loop turn by turn (loopEngine). */
export interface RuntimeEngine {
  /** Runs one user message to its end; its transcript holds only what this engine ran. */
  prompt(message: UserMessage): Promise<AgentRunResult>;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  /** Steers a line into the running turn; absent when the engine cannot (a loop turn by turn). */
  steer?: (text: string) => void;
  abort(): void;
  /** Lines steered or queued that no turn took yet (they go with the next prompt); absent: none can wait. */
  queued?: () => number;
}

export interface EngineOptions {
  model: Model;
  tools: ToolRegistry;
  systemPrompt: string;
  maxSteps?: number;
}
export type EngineFactory = (options: EngineOptions) => RuntimeEngine;

/** The context window a request must fit in; absent from the options: nothing is cut. */
export interface ContextWindow {
  tokens: number;
  /** Kept free for the answer. */
  reserve: number;
}

/** The Runtime's active path in its two parts, as the context adapter reads it. */
export interface ContextSource {
  /** Restored history, then every entry whose write completed, in path order. */
  persisted(): readonly SessionEntry[];
  /** Entries appended but not written yet, oldest first. */
  queued(): readonly SessionEntry[];
}

/** Where a compaction goes: the Runtime's active path and its write queue. */
export interface CompactionTarget extends ContextSource {
  /** Root → leaf: persisted entries, then those still queued. A fresh copy each call. */
  path(): SessionEntry[];
  /** Queues `entry` (a compaction) under the leaf; it becomes the leaf. */
  appendEntry(entry: SessionEntry): void;
  /** An entry id the session does not hold yet. */
  newId(): string;
}

/**
 * Older interactions do not fit the budget: make room (summarise them and append a compaction
 * entry through `target`) and resolve with the context to send. A rejection ends the request as
 * a model error with its message.
 */
export type CompactHook = (
  cut: BuiltContext,
  budget: ContextBudget,
  target: CompactionTarget,
  signal?: AbortSignal,
) => Promise<BuiltContext>;

/** Chapter 11 and 12 code the Runtime calls; each absent field: this tree's own. tiny-pi passes a learner's (--from). */
export interface RuntimeCode {
  buildContext: typeof import("../compaction/index.js").buildContext;
  formatResourceContext: typeof import("../resources/index.js").formatResourceContext;
  loadExtensions: typeof import("../extensions/index.js").loadExtensions;
  hookedRegistry: typeof import("../extensions/index.js").hookedRegistry;
}

/** Chapter 12's extensions for wireRuntime. */
export interface RuntimeExtensions {
  files: readonly Resource[];
  /** Decided before a file is imported (chapter 12's trust gate). */
  trusted: (file: Resource) => boolean | Promise<boolean>;
  /** Built-in extensions (tiny-pi's permission gate): their before hooks run after every loaded one's, without a time limit. */
  builtIn?: readonly ExtensionFactory[];
  onDiagnostic?: (diagnostic: { source: string; message: string }) => void;
}

export interface WireOptions {
  /** The core tools; extensions register theirs into it. */
  tools: ToolRegistry;
  /** The base prompt, or a function of the final tool names (after extensions registered theirs). */
  systemPrompt: string | ((toolNames: readonly string[]) => string);
  /** Chapter 12's context files (as read) and skills: formatted after the base prompt. */
  resources?: { contextFiles: readonly { path: string; content: string }[]; skills: readonly Resource[] };
  extensions?: RuntimeExtensions;
  code?: Partial<RuntimeCode>;
}

/** What wireRuntime composed once; several Runtimes (a /branch) may be opened on the same parts. */
export interface RuntimeParts {
  /** The tools behind every hook. */
  tools: ToolRegistry;
  /** Base prompt + resource context. */
  systemPrompt: string;
  extensions: LoadedExtensions;
}

export interface RuntimeOptions {
  /** Chapter 10's store: the Runtime appends to it, one entry at a time. */
  session: SessionStore;
  /** Required when the session holds entries: the entry to continue from. Refused for an empty session. */
  leaf?: string;
  model: Model;
  parts: RuntimeParts;
  /** Default: agentEngine() (the course's Agent). */
  engine?: EngineFactory;
  maxSteps?: number;
  window?: ContextWindow;
  compact?: CompactHook;
  code?: Partial<RuntimeCode>;
}

export type RuntimeEvent = AgentEvent | { type: "system_prompt"; systemPrompt: string };
export type RuntimeListener = (event: RuntimeEvent) => void;

export interface PromptOptions {
  /** The system prompt for this prompt only; the base one is in force again for the next. */
  systemPrompt?: string;
}

/** The control surface: nothing here hands out the Agent, the model, the tools or the store. */
export interface Runtime {
  /**
   * Runs one user input to its end and resolves once every entry it produced is written. Refused
   * (RuntimeError, one line) while another prompt runs, after a failed write, or after dispose().
   */
  prompt(input: string | UserMessage, options?: PromptOptions): Promise<AgentRunResult>;
  /** Steers a line into the running prompt; false when the engine cannot (it then waits for the next prompt). */
  steer(text: string): boolean;
  abort(): void;
  /** Lines steered into a prompt that did not take them yet: they go with the next prompt. */
  queued(): number;
  subscribe(listener: RuntimeListener): () => void;
  /** Resolves once the writes queued so far are done; rejects with the RuntimeError of a failed write. */
  flush(): Promise<void>;
  /** Refuses prompting from now on, then waits for the running prompt and the disk; rejects like flush(). Idempotent. */
  dispose(): Promise<void>;
  /** The messages of the active path (copies), restored history first. */
  messages(): Message[];
  /** Where compactions go (tiny-pi's /compact). */
  readonly compaction: CompactionTarget;
  /** The leaf the next entry goes under; null: an empty session. */
  leafId(): string | null;
  /** The one line of the write that failed; undefined while every write succeeded. */
  failure(): string | undefined;
  /** The system prompt in force (base + resource context, or this prompt's). */
  systemPrompt(): string;
}

/** What createRuntime builds: the control surface plus the parts openRuntime must not hand out. */
export interface RuntimeCore extends Runtime {
  readonly engine: RuntimeEngine;
  readonly session: SessionStore;
  readonly model: Model;
}
