// Checkpoint 09 · 学习脚手架：AgentOptions、AgentEvent、AgentState 与 Agent 的公共表面已经声明；
// 第 07 章的 loop 已经带上 takeSteering 钩子（每次模型请求前、取消检查之后调用）。五段 Lab 的算法
// 抛出 `Lab 9.N … 尚未实现`，留给你实现。按编号顺序（9.1 → 9.5）完成 `// Lab 9.N` 注释描述的动作，
// 删除对应的临时错误，然后只运行这一段的测试，例如：
//   npm run build -w @pi/course
//   node --test --test-name-pattern="状态与订阅" packages/pi-course/dist/test/09-*.test.js
// biome-ignore-all lint/correctness lint/complexity/noUselessCatch lint/style/useConst: unfinished labs leave parameters, helpers, imports, a bare catch and a never-reassigned let until written.
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
    // Lab 9.1 ①：返回当前状态：messages、isRunning（有 active 运行时为 true）、lastResult（有才给），
    // 以及两个队列的副本 queued.steer / queued.followUp：调用者改副本不会丢掉排队的消息。
    throw new Error("Lab 9.1 状态、订阅与排队 尚未实现");
  }

  /** Calls `listener` with every event from now on, until the returned function is called. */
  subscribe(listener: AgentListener): () => void {
    // Lab 9.1 ②：登记一个 { listener, active: true }。不要原地修改 subscriptions：换成一个新数组，
    // 正在进行的 emit 仍走它开始时的那个数组。返回的取消函数先把 active 设为 false（本次 emit
    // 中还没轮到它也不再收到），再从数组中去掉它。
    throw new Error("Lab 9.1 状态、订阅与排队 尚未实现");
  }

  /** Appends the message and runs turns until the model stops with nothing queued, or the run ends otherwise. */
  async prompt(input: string | UserMessage): Promise<AgentRunResult> {
    // Lab 9.2 ①：运行守卫：已有 active 运行时立即以 PROMPT_WHILE_RUNNING 拒绝（async 函数里 throw
    // 就是 reject），当前回合不受影响。
    // Lab 9.2 ②：登记这次运行：新的 AbortController，以及一个 idle promise（留下它的 resolve，
    // waitForIdle() 要用）。把 toUserMessage(input) 追加到 transcript 的一份新数组里（lastResult
    // 仍是上一次的快照），然后发出 agent_start。
    // Lab 9.2 ③：await this.runTurns(signal)。runTurns reject 时记下错误，结果视为
    // { reason: "error", messages: this.messages, steps: 0 }。
    // Lab 9.2 ④：无论怎样结束，都先清掉 active、记下 lastResult，再发出 agent_end(result)，
    // 然后 resolve idle；最后返回结果，或重新抛出记下的错误。
    throw new Error("Lab 9.2 prompt 与运行守卫 尚未实现");
  }

  /** Queues a message for the running turn: it enters after the current tool batch, before the next request. */
  steer(input: string | UserMessage): void {
    // Lab 9.1 ③：把 toUserMessage(input) 排进 steering 队列，并发出 { type: "queued", kind: "steer", message }。
    throw new Error("Lab 9.1 状态、订阅与排队 尚未实现");
  }

  /** Queues a message to run once the turn would otherwise stop. */
  followUp(input: string | UserMessage): void {
    // Lab 9.1 ③：同上，排进 followUps 队列，kind 为 "followUp"。
    throw new Error("Lab 9.1 状态、订阅与排队 尚未实现");
  }

  /** Aborts the running turn, if any; the queues are kept. */
  abort(): void {
    // Lab 9.2 ⑤：中止正在运行的回合（空闲时什么也不做）；两个队列都不动。
    throw new Error("Lab 9.2 prompt 与运行守卫 尚未实现");
  }

  /** Resolves once no turn runs (after the running turn's agent_end). */
  waitForIdle(): Promise<void> {
    // Lab 9.5 ①：运行中返回这次运行的 idle promise（prompt 在 agent_end 之后 resolve 它），空闲时立即 resolve。
    throw new Error("Lab 9.5 waitForIdle、reset 与被拒的运行 尚未实现");
  }

  /** Clears the transcript, both queues and the last result; refuses while a turn runs. */
  reset(): void {
    // Lab 9.5 ②：运行中以 RESET_WHILE_RUNNING 拒绝（一行错误，什么也不清）；空闲时清空 transcript、
    // 两个队列与 lastResult。
    throw new Error("Lab 9.5 waitForIdle、reset 与被拒的运行 尚未实现");
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
        // Lab 9.4 ①：attempt 是连续失败的次数：这次 loop 在失败之前已有成功的请求（result.steps > 1）
        // 时从 1 重新数，否则加一。超过 this.retry.maxRetries 就不再重试，照常往下结束（error）。
        // Lab 9.4 ②：重试前把失败的 assistant（及其后的 skipped 结果）移出 transcript：
        // this.messages = result.messages.slice(0, failed.index)，steps 减一（它不算留下的回答）。
        // Lab 9.4 ③：delayMs = retryDelay(attempt, this.retry)；先发出
        // { type: "retry", attempt, delayMs, errorMessage }，再 await wait(delayMs, signal)。
        // 等待被 abort() 打断时立即以 aborted 结束；否则 continue，用同一份 transcript 重新请求。
        throw new Error("Lab 9.4 瞬时错误的退避重试 尚未实现");
      }

      const queued = this.steering.length > 0 || this.followUps.length > 0;
      if (result.reason !== "stop" || !queued) return { ...result, steps };
      // Lab 9.3 ③：回合本该 stop，但还有排队的消息：先确认没有被中止（否则以 aborted 结束，队列留着）、
      // 没有用完 maxSteps（否则以 maxSteps 结束），再继续下一次 loop。
      // Lab 9.3 ④：steering 优先：队列里有 steer 时什么也不追加，下一次 loop 的第一次请求会通过
      // takeSteering 取走它们；否则从 followUps 取出最早的一条追加到 transcript（每次只取一条，
      // 每个 followUp 各得一个回答）。
      throw new Error("Lab 9.3 steer 与 followUp 的投递 尚未实现");
    }
  }

  /** One runAgentLoop over the transcript; steering it took goes back to the queue if it rejects. */
  private async runLoop(signal: AbortSignal, maxSteps: number): Promise<AgentRunResult> {
    const taken: UserMessage[] = [];
    const takeSteering = (): Message[] => {
      if (this.steering.length === 0) return NOTHING_QUEUED;
      // Lab 9.3 ①②：loop 在每次模型请求前（取消检查之后）调用这里：这正是上一批工具结果之后、
      // 下一次请求之前。把整个 steering 队列交给 loop（它追加到 transcript），换上一个空队列，
      // 并把交出的消息记进 taken（loop reject 时要还回去，见 Lab 9.5）。
      throw new Error("Lab 9.3 steer 与 followUp 的投递 尚未实现");
    };
    try {
      // Lab 9.2 ⑥：用 this.options 的 model、tools、systemPrompt 与 executeToolCall（有才给），
      // 当前 transcript 作为 context.messages，加上 signal、maxSteps、onEvent: this.emit 和
      // takeSteering，调用 runAgentLoop 并返回它的结果。
      throw new Error("Lab 9.2 prompt 与运行守卫 尚未实现");
    } catch (error) {
      // Lab 9.5 ③：loop reject（模型违反协议）时，这次取走却没送达的 steer 必须回到队列最前面，
      // 排在之后才排队的消息之前，再重新抛出 error。现在它们随这次 loop 的局部 transcript 一起丢了。
      throw error;
    }
  }

  /** Delivers to every active subscriber; one that throws does not keep the event from the others. The loop's onEvent. */
  private readonly emit = (event: AgentEvent): void => {
    // Lab 9.1 ④：依次交给 this.subscriptions 中每个仍然 active 的订阅者。每次调用各自包在
    // try/catch 里：一个订阅者抛错，其他订阅者照常收到事件，运行继续。
    throw new Error("Lab 9.1 状态、订阅与排队 尚未实现");
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
  // Lab 9.4 ④：signal 已中止时立即得到 false。否则用 setTimeout 等 ms 毫秒后得到 true；等待中
  // signal 的 abort 事件到来就 clearTimeout 并立即得到 false。两条路都要撤掉另一条（监听或计时器）。
  throw new Error("Lab 9.4 瞬时错误的退避重试 尚未实现");
}
