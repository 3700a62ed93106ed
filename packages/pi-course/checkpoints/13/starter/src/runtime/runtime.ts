// Checkpoint 13 · 学习脚手架：Runtime 的状态（persisted、queued、writes、poison、recorded…）、订阅、newId()、
// 记录模型（每次请求之前记下新的部分）、引擎的订阅（每个回答完成就记下）与控制面已经写好。Lab 13.3 的几处先抛出
// “尚未实现”的临时错误。按 ① → ④ 完成 `// Lab 13.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="持久化与生命周期" packages/pi-coding-agent/dist/test/13-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useConst: the labs assign these once they are written.
// biome-ignore-all lint/style/useImportType: the labs use RuntimeError as a value.
// The Runtime: one Agent (or loop), one active path, one write queue. Every message the engine's
// transcript gains becomes an entry under the leaf, in transcript order: what a request carries
// past the recorded part is recorded before it goes out, each answer as it completes (a failed
// one only if it stays: the Agent's retry takes it out), and the rest when the prompt ends.
// Entries are written one at a time, in order; a prompt resolves only after its own are on
// disk. A write that fails poisons the Runtime: nothing after it is written, and every later
// prompt is refused in one line, so nothing half-written is ever presented as saved.
import { type Message, type Model, type UserMessage, userMessage } from "@pi/core";
import type { AgentEvent, AgentRunResult } from "@pi/course";
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
    // Lab 13.3 ①：条目加入活动路径的唯一入口。ids.add(entry.id)，它成为 leaf，push 进 queued；然后把写入接在
    // writes 这条 Promise 链后面，一次只写一个、按顺序：已经毒化（poison 有值）就什么都不写；否则
    // await session.append(entry)，成功后把它从 queued 移到 persisted（queued.shift()）。失败时记下 poison =
    // new RuntimeError(`会话写入失败（${cause}）：条目 ${entry.id} 起都没有保存，这个 Runtime 不再接受提示；从已保存的条目重新打开会话再继续。`,
    // { cause: error })：括号里的文字 cause 只取错误消息（error.message）的第一行，多行的存储错误也只给一行；
    // 选项 { cause: error } 挂的是存储抛出的原错误本身。链上的 Promise 自己不能 reject：flush() 和 dispose() 都在等它。
    throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
  };

  const recordMessage = (message: Message) => {
    // Lab 13.3 ②：一条消息变成一个条目：append(messageEntry(JSON 副本, leaf, newId()))，recorded 加一。JSON 副本
    // （JSON.parse(JSON.stringify(message))）就是文件里会留下的样子：值为 undefined 的字段不存在。
    throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
  };
  const recordUpTo = (transcript: readonly Message[]) => {
    // Lab 13.3 ②：引擎的记录里超出 recorded 的每条消息按顺序 recordMessage()：用户的提示、工具结果、steer 进来的行。
    throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
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
    // Lab 13.3 ③：只在变化时打补丁：text 与当前的 systemPrompt 相同就什么都不做（没有事件）；不同就换上它并
    // emit({ type: "system_prompt", systemPrompt: text })。
    throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
  };

  /** Why a prompt cannot start now, if it cannot: the same poison every time, once a write failed. */
  const refusal = (): RuntimeError | undefined => {
    // Lab 13.3 ③：已经毒化就返回 poison 本身（每次同一个对象、同一行）；dispose() 过就返回
    // new RuntimeError("这个 Runtime 已经 dispose()：不再接受提示；要继续，在会话上重新打开一个。")；running 有值就返回
    // new RuntimeError("上一个提示还没有结束：用 steer() 把这一行送进正在运行的一轮，或等它结束再提示。")；都不是就 undefined。
    throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
  };

  const run = async (message: UserMessage, patch: string | undefined): Promise<AgentRunResult> => {
    // Lab 13.3 ③：setSystemPrompt(patch ?? base)；result = await engine.prompt(message)，再 recordUpTo(result.messages)
    // 记下剩下的。无论成败（finally）：setSystemPrompt(base) 恢复基础提示，然后 await writes——这个提示的条目
    // 全部落盘之前不能 resolve。之后 poison 有值就抛出它：没写完的不能当作已保存交给调用方。
    throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
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
      // Lab 13.3 ④：只等调用这一刻已经排着的写入（await writes），之后 poison 有值就抛出它。
      throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
    },
    async dispose() {
      // Lab 13.3 ④：先 closed = true（从这一刻起不再接受提示），再等正在运行的提示（它的失败不在这里报：
      // running?.catch(() => undefined)）和磁盘（await writes），最后 poison 有值就抛出它。可以调用多次：
      // 每次调用都这样做（不要 if (closed) return）。
      throw new Error("Lab 13.3 持久化与生命周期 尚未实现");
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
