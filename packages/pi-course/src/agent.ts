import {
  type AssistantMessage,
  type Message,
  type Model,
  type ToolRegistry,
  type UserMessage,
  userMessage,
} from "@pi/core";
import { type AgentRunResult, type LoopEvent, runAgentLoop, type ToolExecutor } from "./agent-loop.js";
import { isTransientError, type RetryOptions, resolveRetryOptions, retryDelay } from "./retry-policy.js";

export interface AgentOptions {
  model: Model;
  tools: ToolRegistry;
  systemPrompt?: string;
  /** Model requests allowed per prompt, follow-ups and retries included; default 32, as the loop's. */
  maxSteps?: number;
  executeToolCall?: ToolExecutor;
  /** Defaults: 3 retries, 2000 ms before the first, at most 60000 ms before any. */
  retry?: RetryOptions;
}

export type AgentEvent =
  | LoopEvent
  | { type: "agent_start" }
  | { type: "agent_end"; result: AgentRunResult }
  | { type: "retry"; attempt: number; delayMs: number; errorMessage: string }
  | { type: "queued"; kind: "steer" | "followUp"; message: UserMessage };

export interface AgentState {
  /** The transcript as of the last finished loop run: during a run, the events show the rest. */
  messages: Message[];
  isRunning: boolean;
  lastResult?: AgentRunResult;
  /** Messages waiting for delivery, oldest first (copies: queue through steer() and followUp()). */
  queued: { steer: UserMessage[]; followUp: UserMessage[] };
}

export type AgentListener = (event: AgentEvent) => void;

interface Subscription {
  listener: AgentListener;
  active: boolean;
}

interface ActiveRun {
  controller: AbortController;
  idle: Promise<void>;
}

const DEFAULT_MAX_STEPS = 32;
const NOTHING_QUEUED: Message[] = [];

const PROMPT_WHILE_RUNNING =
  "Agent.prompt: a turn is already running; use steer() to redirect it, followUp() to queue the next request, or await waitForIdle() first";
const RESET_WHILE_RUNNING = "Agent.reset: a turn is running; call abort() and await waitForIdle() before reset()";

/**
 * Keeps one conversation across prompts: the transcript, its subscribers, and two queues of
 * user messages typed while a turn runs. `steer` messages enter before the next model request
 * (after the current tool batch); `followUp` messages run when the turn would otherwise stop.
 * Transient model errors are retried with backoff. Nothing queued is dropped: a turn that ends
 * aborted or in an error leaves its queues for the next prompt.
 */
export class Agent {
  private readonly options: AgentOptions;
  private readonly maxSteps: number;
  private readonly retry: Required<RetryOptions>;
  private messages: Message[] = [];
  private steering: UserMessage[] = [];
  private followUps: UserMessage[] = [];
  /** Replaced, never mutated, on (un)subscribe: an emit walks the array it started with. */
  private subscriptions: Subscription[] = [];
  private lastResult: AgentRunResult | undefined;
  private active: ActiveRun | undefined;

  constructor(options: AgentOptions) {
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new RangeError(`Agent: maxSteps must be a whole number ≥ 1, got ${String(options.maxSteps)}`);
    }
    this.options = options;
    this.maxSteps = maxSteps;
    this.retry = resolveRetryOptions(options.retry);
  }

  get state(): AgentState {
    return {
      messages: this.messages,
      isRunning: this.active !== undefined,
      ...(this.lastResult && { lastResult: this.lastResult }),
      queued: { steer: [...this.steering], followUp: [...this.followUps] },
    };
  }

  /** Calls `listener` with every event from now on, until the returned function is called. */
  subscribe(listener: AgentListener): () => void {
    const subscription: Subscription = { listener, active: true };
    this.subscriptions = [...this.subscriptions, subscription];
    return () => {
      subscription.active = false;
      this.subscriptions = this.subscriptions.filter((entry) => entry !== subscription);
    };
  }

  /** Appends the message and runs turns until the model stops with nothing queued, or the run ends otherwise. */
  async prompt(input: string | UserMessage): Promise<AgentRunResult> {
    if (this.active) throw new Error(PROMPT_WHILE_RUNNING);
    let markIdle!: () => void;
    const idle = new Promise<void>((resolve) => {
      markIdle = resolve;
    });
    const controller = new AbortController();
    this.active = { controller, idle };
    this.messages = [...this.messages, toUserMessage(input)];
    this.emit({ type: "agent_start" });

    let result: AgentRunResult;
    let failure: { error: unknown } | undefined;
    try {
      result = await this.runTurns(controller.signal);
    } catch (error) {
      failure = { error };
      result = { reason: "error", messages: this.messages, steps: 0 };
    }
    this.active = undefined;
    this.lastResult = result;
    this.emit({ type: "agent_end", result });
    markIdle();
    if (failure) throw failure.error;
    return result;
  }

  /** Queues a message for the running turn: it enters after the current tool batch, before the next request. */
  steer(input: string | UserMessage): void {
    const message = toUserMessage(input);
    this.steering.push(message);
    this.emit({ type: "queued", kind: "steer", message });
  }

  /** Queues a message to run once the turn would otherwise stop. */
  followUp(input: string | UserMessage): void {
    const message = toUserMessage(input);
    this.followUps.push(message);
    this.emit({ type: "queued", kind: "followUp", message });
  }

  /** Aborts the running turn, if any; the queues are kept. */
  abort(): void {
    this.active?.controller.abort();
  }

  /** Resolves once no turn runs (after the running turn's agent_end). */
  waitForIdle(): Promise<void> {
    return this.active?.idle ?? Promise.resolve();
  }

  /** Clears the transcript, both queues and the last result; refuses while a turn runs. */
  reset(): void {
    if (this.active) throw new Error(RESET_WHILE_RUNNING);
    this.messages = [];
    this.steering = [];
    this.followUps = [];
    this.lastResult = undefined;
  }

  /**
   * One loop run per turn: the prompt's, each retry of a transient error, and each continuation
   * for messages queued when a turn stops (steering first, then one follow-up at a time).
   */
  private async runTurns(signal: AbortSignal): Promise<AgentRunResult> {
    let steps = 0;
    let attempt = 0;
    for (;;) {
      const result = await this.runLoop(signal, this.maxSteps - steps);
      this.messages = result.messages;
      steps += result.steps;

      const failed = failedAssistant(result);
      if (failed && isTransientError(failed.message.errorMessage)) {
        // A request that succeeded before this failure starts the count again.
        attempt = result.steps > 1 ? 1 : attempt + 1;
        if (attempt <= this.retry.maxRetries) {
          this.messages = result.messages.slice(0, failed.index);
          steps -= 1;
          const delayMs = retryDelay(attempt, this.retry);
          this.emit({ type: "retry", attempt, delayMs, errorMessage: failed.message.errorMessage ?? "" });
          if (!(await wait(delayMs, signal))) return { reason: "aborted", messages: this.messages, steps };
          continue;
        }
      }

      const queued = this.steering.length > 0 || this.followUps.length > 0;
      if (result.reason !== "stop" || !queued) return { ...result, steps };
      if (signal.aborted) return { reason: "aborted", messages: this.messages, steps };
      if (steps >= this.maxSteps) return { reason: "maxSteps", messages: this.messages, steps };
      // Steering waiting is taken by the next run's first request; otherwise one follow-up goes in now.
      if (this.steering.length === 0) this.messages.push(this.followUps.shift() as UserMessage);
    }
  }

  /** One runAgentLoop over the transcript; steering it took goes back to the queue if it rejects. */
  private async runLoop(signal: AbortSignal, maxSteps: number): Promise<AgentRunResult> {
    const taken: UserMessage[] = [];
    const takeSteering = (): Message[] => {
      if (this.steering.length === 0) return NOTHING_QUEUED;
      const delivered = this.steering;
      this.steering = [];
      taken.push(...delivered);
      return delivered;
    };
    try {
      return await runAgentLoop({
        model: this.options.model,
        tools: this.options.tools,
        context: { systemPrompt: this.options.systemPrompt, messages: this.messages },
        signal,
        maxSteps,
        ...(this.options.executeToolCall && { executeToolCall: this.options.executeToolCall }),
        onEvent: this.emit,
        takeSteering,
      });
    } catch (error) {
      this.steering = [...taken, ...this.steering];
      throw error;
    }
  }

  /** Delivers to every active subscriber; one that throws does not keep the event from the others. The loop's onEvent. */
  private readonly emit = (event: AgentEvent): void => {
    const subscriptions = this.subscriptions;
    for (let index = 0; index < subscriptions.length; index += 1) {
      const subscription = subscriptions[index] as Subscription;
      if (!subscription.active) continue;
      try {
        subscription.listener(event);
      } catch {
        // A listener's failure is its own: the run and the other listeners go on.
      }
    }
  };
}

function toUserMessage(input: string | UserMessage): UserMessage {
  return typeof input === "string" ? userMessage(input) : structuredClone(input);
}

/** The assistant a run ended on when its model request failed ("error"), with its index. */
function failedAssistant(result: AgentRunResult): { message: AssistantMessage; index: number } | undefined {
  if (result.reason !== "error") return undefined;
  for (let index = result.messages.length - 1; index >= 0; index -= 1) {
    const message = result.messages[index] as Message;
    if (message.role === "assistant") return message.stopReason === "error" ? { message, index } : undefined;
  }
  return undefined;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
