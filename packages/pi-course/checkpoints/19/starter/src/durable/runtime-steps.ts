// Checkpoint 19 · 学习脚手架：durable Runtime 的每一步。接口、record()、任务的 running 记录、把模型流转给 loop 的
// 管道与混沌测试的杀点已经写好。四段 Lab 各有一步在这里（Lab 19.1 ⑥、19.2 ④⑤、19.3 ①②③、19.4 ③④）：starter 里
// 它们先什么也不做（不会抛出），所以它们的测试以断言失败，说出缺的那条规则。每段 Lab 先做好它的主文件
// （commit-log.ts、tasks.ts、recovery.ts、partial-output.ts），再补这里带同一编号的一步，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="原子提交" packages/pi-coding-agent/dist/test/19-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
      // Lab 19.2 ④：用户提示和它开启的任务一起提交：任务记录标上 batch 2（record 的第二个参数），
      //   持久存储就把它和紧接着追加的用户消息攒成一批，一次写入（整批或者全不算）。
      record({ kind: "task", task, state: "pending" });
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
      // Lab 19.4 ③：const partial = new PartialOutput(text => 有任务（current）时 record({ kind: "partial", task: current, text }))：
      //   流式文本攒够一批就作为这个任务的部分输出提交。
      const out = new PushModelStream();
      const pipe = async () => {
        // Lab 19.1 ⑥：先提交，再可见：await deps.committed()（用户提示、任务与它 running 的记录都已写进文件），
        //   deps.failure() 有值（写入失败，Runtime 已经中毒）→ 抛出它，请求不发；之后才 open() 发出请求。
        const inner = open();
        for await (const event of inner) {
          if (event.type === "text_delta") {
            if (killHere("stream")) die();
            // Lab 19.4 ④：partial.add(event.delta)：每个文本增量交给 PartialOutput（它决定什么时候提交一批）。
          }
          out.push(event);
        }
        out.end(await inner.result());
      };
      pipe().catch((error: unknown) => out.fail(error));
      return out;
    },
    async executeToolCall(call, context) {
      // Lab 19.3 ①：意图先提交：record({ kind: "intent", callId: call.id, tool: call.name, replaySafe })，replaySafe 是
      //   isReplaySafe(deps.tools.get(call.name) as MaybeReplaySafe | undefined)：工具此刻说的，恢复时还要再问一次现在的工具。
      // Lab 19.3 ②：await deps.committed()：意图在文件里之后才执行（它不会拒绝：写入失败由 ③ 的 deps.failure() 说出）。
      // Lab 19.3 ③：deps.failure() 有值（意图没能写下）→ 不执行，返回 toolErrorResult(call,
      //   `Tool call was not run: its intent was not saved (${failure})`)：没有意图就运行的调用，恢复时谁也说不清它跑没跑过。
      if (killHere("intent")) die();
      return executeToolCall(call, deps.tools, context);
    },
    completed(outcome) {
      // Lab 19.2 ⑤：有任务时 record({ kind: "task", task, state: "completed", outcome })：不管这次运行怎样结束（stop、
      //   error、aborted……）任务都完成了；出错的回答不留下还在 running 的任务，恢复时也就不会再发一次。
      task = undefined;
      running = false;
    },
  };
}
