// Lab 16.3 · 限制: One codemode run on the host: a new worker thread with a fresh VM, the nested-call bridge, the
// deadline, the caller's abort. Whatever ends the run first wins; ending always sets the engine's
// interrupt flag, closes the bridge (pending nested calls become "cancelled", later ones are
// refused) and terminates the worker, and the run's promise resolves only once the worker is gone.
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
  const interrupt = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const worker = await startWorker(options.code, interrupt, limits);

  return new Promise<CodeRun>((resolve) => {
    let ended = false;
    const end = (run: Omit<CodeRun, "calls">) => {
      if (ended) return;
      ended = true;
      Atomics.store(new Int32Array(interrupt), 0, 1);
      clearTimeout(deadline);
      options.signal?.removeEventListener("abort", onAbort);
      bridge.close(run.failure === "aborted" ? "the run was aborted" : "the run has ended");
      void worker.terminate().then(() => resolve({ ...run, calls: bridge.calls }));
    };
    const fail = (failure: CodeFailure, error: string) => end({ ok: false, failure, error, output: "" });
    const onAbort = () => fail("aborted", "the run was aborted");
    const deadline = setTimeout(
      () => fail("timeout", `the script ran past its ${limits.timeoutMs / 1000} s deadline and was stopped`),
      limits.timeoutMs,
    );
    options.signal?.addEventListener("abort", onAbort, { once: true });

    worker.on("message", (message: WorkerMessage) => {
      if (ended) return;
      if (message.type === "done") return end(finished(message, execute));
      void bridge.call(message.name, message.args).then((answer) => {
        if (ended) return;
        if ("end" in answer) return fail("limit", answer.end);
        const reply: ReplyMessage = { type: "reply", seq: message.seq, ...answer };
        worker.postMessage(reply);
      });
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const died = workerError(error);
      fail(died.failure, died.message);
    });
    worker.on("exit", () => fail("error", "the sandbox stopped before the script finished"));
  });
}

/**
 * How a worker's `error` event ends the run. V8 reports a worker whose own heap (resourceLimits) ran out as
 * ERR_WORKER_OUT_OF_MEMORY: that is the run's "memory" failure like the engine's own limit, not a sandbox error.
 */
export function workerError(error: Error & { code?: string }): { failure: CodeFailure; message: string } {
  if (error.code === "ERR_WORKER_OUT_OF_MEMORY")
    return { failure: "memory", message: "out of memory: the sandbox's worker ran out of heap" };
  return { failure: "error", message: `the sandbox failed: ${error.message.split("\n", 1)[0]}` };
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
