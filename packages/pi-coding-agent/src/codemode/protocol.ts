// The messages between the host (sandbox.ts) and the worker (worker.ts). Only strings and numbers
// cross: a value from the script is JSON text the host parses itself (safe-json.ts).
import type { EngineModule } from "./engine-module.js";

/** What the worker is started with (workerData). */
export interface WorkerStart {
  code: string;
  /** The compiled engine (engine-module.ts), shared with the worker without compiling it again. */
  wasm: EngineModule;
  /** Int32Array[0] != 0 asks the engine to stop at its next interrupt check. */
  interrupt: SharedArrayBuffer;
  memoryBytes: number;
  stackBytes: number;
  maxOutputChars: number;
  maxConsoleCalls: number;
}

/** Worker → host: the script called `tools.<name>(args)`. */
export interface CallMessage {
  type: "call";
  seq: number;
  name: string;
  /** JSON text of the arguments, as the script's own JSON.stringify made it. */
  args: string;
}

/** How a run that did not return ended, as the worker saw it. */
export type WorkerFailure = "error" | "stalled" | "memory";

/** Worker → host: the run is over (the worker stops right after). */
export interface DoneMessage {
  type: "done";
  ok: boolean;
  /** JSON text of the return value; absent when the script returned undefined or failed. */
  value?: string;
  /** One line, when ok is false. */
  error?: string;
  failure?: WorkerFailure;
  output: string;
  /** performance.timeOrigin + performance.now() when the worker began, and just before the script's first instruction. */
  timings: { workerStart: number; scriptStart: number };
}

export type WorkerMessage = CallMessage | DoneMessage;

/** Host → worker: the outcome of one nested call. */
export interface ReplyMessage {
  type: "reply";
  seq: number;
  ok: boolean;
  /** The tool's text when ok, else the one-line error the script's promise rejects with. */
  text: string;
}
