// Checkpoint 16 · 学习脚手架：限制。启动 worker 的 startWorker()、读 worker 结果的 finished() 与活着的 worker 计数已经写好。
// Lab 16.3 的部分先抛出“尚未实现”的临时错误。按编号完成 `// Lab 16.3` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="限制" packages/pi-coding-agent/dist/test/16-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { Worker } from "node:worker_threads";
import type { Tool } from "@pi/core";
import { engineModule } from "./engine-module.js";
import { type CodeLimits, DEFAULT_CODE_LIMITS } from "./limits.js";
import { type NestedCall, NestedCallBridge } from "./nested-calls.js";
import type { DoneMessage, ReplyMessage, WorkerMessage, WorkerStart } from "./protocol.js";
import { parseSandboxJson } from "./safe-json.js";

export type CodeFailure = "error" | "stalled" | "memory" | "timeout" | "aborted" | "limit";

export interface CodeRun {
  ok: boolean;
  /** The script's return value (parsed from JSON); absent when it returned undefined or failed. */
  value?: unknown;
  /** One line, when ok is false. */
  error?: string;
  failure?: CodeFailure;
  output: string;
  calls: NestedCall[];
  /** When the run returned normally: host clock at execute, worker start, first script instruction. */
  timings?: { execute: number; workerStart: number; scriptStart: number };
}

export interface CodeRunOptions {
  code: string;
  /** The callable tools the script may reach (chapter 15's callable set, or all tools without it). */
  tools: readonly Tool[];
  /** The code tool call's id; nested calls are `<parentId>/<n>`. */
  parentId: string;
  signal?: AbortSignal;
  limits?: Partial<CodeLimits>;
}

let liveWorkers = 0;

/** Sandbox workers started and not yet exited (0 whenever no run is in progress). */
export function liveSandboxWorkers(): number {
  return liveWorkers;
}

export async function runCode(options: CodeRunOptions): Promise<CodeRun> {
  const execute = performance.timeOrigin + performance.now();
  const limits: CodeLimits = { ...DEFAULT_CODE_LIMITS, ...options.limits };
  const bridge = new NestedCallBridge(options.parentId, options.tools, limits);
  if (options.signal?.aborted)
    return { ok: false, failure: "aborted", error: "the run was aborted", output: "", calls: [] };
  // Lab 16.3 ①：interrupt 是一个 Int32 的 SharedArrayBuffer（worker 里的引擎在每次中断检查时读它），
  // await startWorker(options.code, interrupt, limits) 启动一个新的 worker；返回 new Promise<CodeRun>。
  // Lab 16.3 ②：end(run) 只生效一次：Atomics.store(new Int32Array(interrupt), 0, 1) 让引擎停下，clearTimeout 截止时间，
  // 移除 abort 的监听，bridge.close(中止就是 "the run was aborted"，否则 "the run has ended")，
  // 然后 await worker.terminate() 之后才 resolve({ ...run, calls: bridge.calls })：worker 没了运行才算结束。
  // fail(failure, error) 是 end({ ok: false, failure, error, output: "" })。
  // Lab 16.3 ③：setTimeout(limits.timeoutMs) 到了是 fail("timeout", "…ran past its N s deadline…")；
  // options.signal 的 abort 是 fail("aborted", "the run was aborted")（{ once: true }）。
  // Lab 16.3 ④：worker 的 "message"：已结束就不管；type "done" → end(finished(message, execute))；否则是嵌套调用：
  // bridge.call(name, args) 的回答带 end 就 fail("limit", answer.end)，不然 worker.postMessage({ type: "reply",
  // seq, ...answer })。"error"：workerError(error) 给出 { failure, message }，fail(failure, message)；
  // "exit"：fail("error", "the sandbox stopped before the script finished")。
  throw new Error("Lab 16.3 限制 尚未实现");
}

/**
 * How a worker's `error` event ends the run. V8 reports a worker whose own heap (resourceLimits) ran out as
 * ERR_WORKER_OUT_OF_MEMORY: that is the run's "memory" failure like the engine's own limit, not a sandbox error.
 */
export function workerError(error: Error & { code?: string }): { failure: CodeFailure; message: string } {
  // Lab 16.3 ⑤：error.code 是 "ERR_WORKER_OUT_OF_MEMORY"（worker 自己的 V8 堆耗尽）→ { failure: "memory", message:
  // "out of memory: the sandbox's worker ran out of heap" }；别的错误 → { failure: "error", message:
  // "the sandbox failed: " + error.message 的第一行 }。真的让 worker 的堆耗尽可能让整个进程崩溃，所以测试直接调用它。
  throw new Error("Lab 16.3 限制 尚未实现");
}

/** A new worker thread with a fresh VM for `code`; counted in liveSandboxWorkers() until it exits. */
async function startWorker(code: string, interrupt: SharedArrayBuffer, limits: CodeLimits): Promise<Worker> {
  const start: WorkerStart = {
    code,
    wasm: await engineModule(),
    interrupt,
    memoryBytes: limits.memoryBytes,
    stackBytes: limits.stackBytes,
    maxOutputChars: limits.maxOutputChars,
    maxConsoleCalls: limits.maxConsoleCalls,
  };
  const worker = new Worker(new URL("./worker.js", import.meta.url), {
    workerData: start,
    // The host's node flags (--input-type, --import tsx, --inspect…) are not the engine's business.
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
  });
  liveWorkers += 1;
  worker.once("exit", () => {
    liveWorkers -= 1;
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

function finished(message: DoneMessage, execute: number): Omit<CodeRun, "calls"> {
  const timings = { execute, ...message.timings };
  if (!message.ok) {
    return {
      ok: false,
      failure: message.failure ?? "error",
      error: message.error ?? "the script failed",
      output: message.output,
      timings,
    };
  }
  if (message.value === undefined) return { ok: true, output: message.output, timings };
  return { ok: true, value: parseSandboxJson(message.value), output: message.output, timings };
}
