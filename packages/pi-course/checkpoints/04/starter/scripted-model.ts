// Checkpoint 04 · 学习脚手架：ScriptedModel 的字段与 playTurn() 的签名已经声明；Lab 4.1–4.4 的
// 位置先抛出“尚未实现”。每完成一段 Lab，删除它的临时错误，只运行这一段的测试：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="脚本回合" packages/pi-core/dist/test/04-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, imports and fields unused until written.
import { type AssistantMessage, assistantMessage, toolCallsOf } from "./messages.js";
import type { Model, ModelRequest, ModelStream, ModelStreamOptions } from "./model.js";
import { PushModelStream } from "./model-stream.js";

/**
 * Plays scripted assistant turns in order, one per stream() call, and records a
 * deep snapshot of every request (and its options) it received. A request with
 * nothing to play ends in the protocol's `error` terminal, never a throw: past
 * the script it is an `error` naming the request, with a signal already aborted
 * it is `aborted` and the turn stays for the next request.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  /** The options of each stream() call, in order; signals are kept as given. */
  readonly requestOptions: (ModelStreamOptions | undefined)[] = [];
  private readonly turns: AssistantMessage[];
  /** Turns played so far: a pre-aborted request plays none. */
  private played = 0;

  constructor(turns: AssistantMessage[]) {
    this.turns = structuredClone(turns);
  }

  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream {
    // Lab 4.1 ①：先记下这次请求，再找回合：this.requests.push(structuredClone(request))，调用者之后再改请求
    //   也不影响快照；options 原样记进 this.requestOptions，不要 structuredClone：它不报错，却把 signal 悄悄变成空对象 {}。
    //   两者都在预取消的分支之前记下：requests[i] 与 requestOptions[i] 是同一次请求。
    //   还没有记下请求时，下面这一行总会抛出：写完 ① 就删掉它。
    if (this.requests.length === 0) throw new Error("Lab 4.1 把脚本回合播放成事件 尚未实现");
    if (options?.signal?.aborted) {
      // Lab 4.4 预取消：signal 在请求之前已经取消，什么也不播放：return playTurn(assistantMessage([], "aborted"))，
      //   终态是不带 message 的 { type: "error", reason: "aborted" }。不动 this.played：这个回合留给下一次请求。
      throw new Error("Lab 4.4 预取消的请求不消耗回合 尚未实现");
    }
    const turn = this.turns[this.played];
    if (turn === undefined) {
      // Lab 4.3 脚本耗尽：没有回合可放，也不抛出：return playTurn({ ...assistantMessage([], "error"), errorMessage })，
      //   errorMessage 写明第几次请求（this.requests.length）、脚本有几个回合、怎么改：
      //   `ScriptedModel: request <N> has no scripted turn (the script has <M>); add a turn or expect fewer requests`
      //   playTurn() 的错误分支（Lab 4.2）把它变成带 message 的 error 事件；快照在 ① 已经记下。
      throw new Error("Lab 4.3 脚本耗尽是 error 终态 尚未实现");
    }
    this.played += 1;
    return playTurn(structuredClone(turn));
  }
}

function playTurn(turn: AssistantMessage): ModelStream {
  const stream = new PushModelStream();
  stream.push({ type: "start" });
  for (const block of turn.content) {
    // Lab 4.1 ②：每个文本块（block.type === "text"）push 一个 { type: "text_delta", delta: block.text }；调用块在下一个循环里：
    //   先发完所有文字，再发调用，content 里写在调用之后的文字也先发。text 为 "" 的块也发（delta: ""），不跳过。
    throw new Error("Lab 4.1 把脚本回合播放成事件 尚未实现");
  }
  for (const call of toolCallsOf(turn)) {
    // Lab 4.1 ③：每个调用先 push { type: "toolcall_delta", delta: JSON.stringify(call.arguments) }，
    //   再 push { type: "toolcall_end", toolCall: structuredClone(call) }。
    throw new Error("Lab 4.1 把脚本回合播放成事件 尚未实现");
  }
  const reason = turn.stopReason;
  if (reason === "error" || reason === "aborted") {
    // Lab 4.2 错误终态：error 与 aborted 的终态是 { type: "error", reason }：有 errorMessage 时再带上 message，
    //   没有时不要写 message 字段。“有没有”看 turn.errorMessage === undefined（和第 03 章一样）：errorMessage 为 ""
    //   也带上 message。部分文字已经在上面发出，完整消息由下面的 end(turn) 交给 result()。
    throw new Error("Lab 4.2 错误回合保留部分与诊断 尚未实现");
  } else {
    stream.push({ type: "done", reason });
  }
  stream.end(turn);
  return stream;
}
