// Checkpoint 16 · 学习脚手架：一次运行。宿主函数、输出的上限与把异常变成一行的 failureOf() 已经写好。
// Lab 16.1 的部分先抛出“尚未实现”的临时错误。按编号完成 `// Lab 16.1` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="一次运行" packages/pi-coding-agent/dist/test/16-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import type { JSValueHandle, QuickJS } from "quickjs-wasi";
import { GUEST_PRELUDE, HOST_CALL, HOST_LOG } from "./guest-prelude.js";
import type { ReplyMessage } from "./protocol.js";

/** How the worker talks to the host: nested calls out, their replies in. */
export interface HostLink {
  call(seq: number, name: string, args: string): void;
  nextReply(): Promise<ReplyMessage>;
}

export interface OutputLimits {
  maxOutputChars: number;
  maxConsoleCalls: number;
}

export type ScriptOutcome =
  | { ok: true; value?: string; output: string }
  | { ok: false; error: string; failure: "error" | "stalled" | "memory"; output: string };

export async function runScript(
  vm: QuickJS,
  code: string,
  host: HostLink,
  limits: OutputLimits,
): Promise<ScriptOutcome> {
  const output = new OutputBuffer(limits);
  const inFlight = new Map<number, ReturnType<QuickJS["newPromise"]>>();
  let seq = 0;
  vm.global.setProp(
    HOST_CALL,
    vm.newFunction(HOST_CALL, (name, args) => {
      const deferred = vm.newPromise();
      deferred.settled.catch(() => {});
      seq += 1;
      inFlight.set(seq, deferred);
      host.call(seq, stringOf(vm, name), stringOf(vm, args));
      return deferred.handle;
    }),
  );
  vm.global.setProp(
    HOST_LOG,
    vm.newFunction(HOST_LOG, (text) => {
      output.add(stringOf(vm, text));
      return vm.undefined;
    }),
  );
  // Lab 16.1 ①：先 vm.evalCode(GUEST_PRELUDE, "prelude.js") 得到 track；再把脚本包成
  // `(async () => {\n${code}\n})()` 求值，得到它的 promise，vm.callFunction(track, vm.undefined, promise)
  // 得到读结果的函数 outcome。这两步抛错（语法错误、引擎的中断）就 return failureOf(error, output.text())。
  // Lab 16.1 ②：for (;;) 循环：先 vm.executePendingJobs()（不跑完待办的 job，脚本永远看不见回复），
  // 再读 stringOf(vm, vm.callFunction(outcome, vm.undefined))："u" → ok 无值；"v…" → ok，value 是 "v" 之后的
  // JSON 文本；"e…" → ok:false、failure "error"、error 是 oneLine(之后的文字)；都带 output.text()。
  // Lab 16.1 ③：还是 ""（没兑现）且 inFlight 是空的：没有任何东西能兑现它了，立刻返回 failure "stalled"
  // （一行错误，说出没有工具调用在途）；否则 await host.nextReply()，从 inFlight 取出并删除它的 deferred，
  // reply.ok 就 deferred.resolve(vm.newString(reply.text))，否则 deferred.reject(vm.newError(reply.text))。
  // 循环里抛出的（内存不够、中断）同样 return failureOf(error, output.text())。
  throw new Error("Lab 16.1 一次运行 尚未实现");
}

/** A thrown value (guest exception or the engine's own interrupt / out-of-memory) as one line. */
function failureOf(error: unknown, output: string): ScriptOutcome {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const failure = /out of memory/i.test(message) ? "memory" : "error";
  if (failure === "memory")
    return { ok: false, error: "out of memory: the script allocated more than its memory limit", failure, output };
  return { ok: false, error: oneLine(message), failure, output };
}

function stringOf(vm: QuickJS, handle: JSValueHandle): string {
  return handle.typeof === "string" ? String(vm.dump(handle)) : "";
}

function oneLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/** console output with two caps: characters kept and calls counted, each cut with one notice. */
class OutputBuffer {
  private readonly parts: string[] = [];
  private chars = 0;
  private calls = 0;
  private cut = false;

  constructor(private readonly limits: OutputLimits) {}

  add(line: string): void {
    if (this.cut) return;
    this.calls += 1;
    if (this.calls > this.limits.maxConsoleCalls) {
      this.parts.push(`[output cut: more than ${this.limits.maxConsoleCalls} console calls]`);
      this.cut = true;
      return;
    }
    const room = this.limits.maxOutputChars - this.chars;
    if (line.length + 1 > room) {
      this.parts.push(`${line.slice(0, Math.max(0, room))}\n[output cut at ${this.limits.maxOutputChars} characters]`);
      this.cut = true;
      return;
    }
    this.parts.push(line);
    this.chars += line.length + 1;
  }

  text(): string {
    return this.parts.join("\n");
  }
}
