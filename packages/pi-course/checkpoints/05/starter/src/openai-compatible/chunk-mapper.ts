// Checkpoint 05 · 学习脚手架（6 个教学文件的第 5 个）：数据块 → 第 01 章的 ModelEvent 与这一轮唯一的 assistant。字段、fail() 与
// finish() 的骨架已经写好；Lab 5.2、5.4、5.5、5.6 各有几处先抛出“尚未实现”。按 Lab 的编号完成
// `// Lab 5.N` 注释描述的动作，删除对应的临时错误，然后只运行那一段的测试，例如：
//   npm run build -w @pi/ai
//   node --test --test-name-pattern="文本与终态" packages/pi-ai/dist/test/05-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// Chat Completions chunks → chapter 01's ModelEvents and the turn's one assistant.
import type { AssistantMessage, ModelEvent, TextContent, ToolCall } from "@pi/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { mapFinishReason } from "./finish-reason.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";

/** How the transport ended: it read the stream to its end, the signal aborted it, or it failed. */
export type StreamEnd = { kind: "complete" } | { kind: "aborted" } | { kind: "failed"; message: string };

const ABORTED_MESSAGE = "aborted: the request was cancelled";

type Delta = ChatCompletionChunk.Choice.Delta;

/**
 * Text fragments become `text_delta`s and argument fragments `toolcall_delta`s as they arrive. Calls
 * are complete once `finish_reason` arrives: then each gets its `toolcall_end`. The usage chunk may
 * follow, so the terminal event waits for the end of the stream (`finish`).
 */
export class ChunkMapper {
  private text = "";
  private readonly assembler = new ToolCallAssembler();
  private finishReason: string | undefined;
  private calls: ToolCall[] = [];
  private callProblem: string | undefined;
  private usage: AssistantMessage["usage"];

  constructor(private readonly emit: (event: ModelEvent) => void) {}

  accept(chunk: ChatCompletionChunk): void {
    // Lab 5.4 ①：一个数据块按这个顺序读：
    //   1. chunk.usage 存在时记下 { input: prompt_tokens ?? 0, output: completion_tokens ?? 0 }（任何块都可能带它，
    //      常见的是 finish_reason 之后 choices 为 [] 的最后一块，所以这一步在“还有没有 choice”之前）；
    //   2. 取 choices[0]；没有，或者 finish_reason 已经到过，就到此为止；
    //   3. 有 delta 时：acceptText(delta)；delta.tool_calls 存在时交给 this.acceptFragments(...)；
    //   4. 最后才看 choice.finish_reason（收尾的块可能还带着最后一段文字或参数片段，先看它再 return 就丢了）：
    //      它是非空字符串时才算到了（null 与 "" 都还不算），记进 this.finishReason，this.assembler.pending 为 true（有调用）时再 this.endCalls(finish_reason)。
    //      （SDK 的类型里 finish_reason 没有 ""，直接写 !== "" 编译不过：先把它当 unknown 读，再 typeof … === "string" 且长度不为 0。）
    throw new Error("Lab 5.4 文本、用量与 finish_reason 尚未实现");
  }

  /** Emits the terminal event and returns the assistant, which keeps everything received so far. */
  finish(end: StreamEnd, timestamp: number): AssistantMessage {
    const assistant = this.partial(timestamp);
    if (end.kind === "aborted") {
      // Lab 5.6 ①：取消也带着已收到的部分结束：用 fail() 以 "aborted" 和 ABORTED_MESSAGE 结束这一轮。
      // finish_reason 已经到了（还在等末尾的 usage 块）也一样：先看 end 是不是 aborted，不看 finish_reason。
      throw new Error("Lab 5.6 取消时保留已收到的部分 尚未实现");
    }
    if (end.kind === "failed") {
      // Lab 5.2 ⑤：传输失败（HTTP 错误、连不上、流中途断开、坏形状）：用 fail() 以 "error" 和
      // end.message（model.ts 已经去掉了密钥的那一行）结束。交给 fail() 的就是上面 partial() 给出的 assistant，
      // 不要另做一条空的：已收到的部分要留在里面（5.2 的测试没有数据块，Lab 5.4 的“流在中途断开”才检查它）。
      throw new Error("Lab 5.2 失败只留一行，密钥不出现 尚未实现");
    }
    if (this.callProblem !== undefined) return this.fail(assistant, "error", this.callProblem);
    return this.finished(assistant);
  }

  /** The stream was read to its end: finish_reason decides how the turn ends. */
  private finished(assistant: AssistantMessage): AssistantMessage {
    // Lab 5.4 ③：mapFinishReason(this.finishReason) 给出 error 时用 fail() 以 "error" 结束；
    // 给出 reason 时把它写进 assistant.stopReason，发出 { type: "done", reason }，返回 assistant。
    throw new Error("Lab 5.4 文本、用量与 finish_reason 尚未实现");
  }

  private acceptText(delta: Delta): void {
    // Lab 5.4 ②：content 是非空字符串时才算一个片段：追加到 this.text，并发出一个 text_delta。
    // 只有空白的 "\n\n"、" " 也是非空字符串：原样追加，不 trim。"" 与 null 片段忽略；reasoning_content 不读：
    // 推理内容不进入回答。
    throw new Error("Lab 5.4 文本、用量与 finish_reason 尚未实现");
  }

  private acceptFragments(fragments: NonNullable<Delta["tool_calls"]>): void {
    // Lab 5.5 ③：每个片段交给 this.assembler.accept()，它返回这个片段带来的参数文本；不是 "" 时
    // 原样发出一个 toolcall_delta（不解析、不修补）。
    throw new Error("Lab 5.5 按 index 重组并行调用 尚未实现");
  }

  /**
   * The calls are whole: each gets its `toolcall_end`. Under `length` the token limit cut the
   * answer, so arguments may be cut too: that is the turn's reason, not a broken call.
   */
  private endCalls(finishReason: string): void {
    // Lab 5.5 ④：const { calls, problem } = this.assembler.finish()；calls 存进 this.calls，每个发出一个
    // toolcall_end。problem 存进 this.callProblem，但 finishReason 是 "length" 时不存：截断是这一轮的
    // 原因（done length），不是坏调用。
    throw new Error("Lab 5.5 按 index 重组并行调用 尚未实现");
  }

  /** What arrived, whatever the end: the text and the calls that got their end, and the usage. Unfinished calls are dropped. */
  private partial(timestamp: number): AssistantMessage {
    // Lab 5.2 ④：content 先放 this.text 的 text 块（为 "" 时不放），再放 this.calls；stopReason 先写 "stop"，
    // 由调用者改；this.usage 存在时才写 usage 字段。（先文字后调用的顺序要到 Lab 5.5 既有文字又有调用的一轮才检查。）
    throw new Error("Lab 5.2 失败只留一行，密钥不出现 尚未实现");
  }

  private fail(assistant: AssistantMessage, reason: "error" | "aborted", message: string): AssistantMessage {
    assistant.stopReason = reason;
    assistant.errorMessage = message;
    this.emit({ type: "error", reason, message });
    return assistant;
  }
}
