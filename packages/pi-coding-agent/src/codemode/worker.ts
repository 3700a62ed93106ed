// The worker thread's entry: one fresh VM for one script, then the worker is done. The host never
// reuses a worker or a VM, so nothing a script leaves behind (globals, patched prototypes, pending
// jobs) can reach the next run.
import { parentPort, workerData } from "node:worker_threads";
import { QuickJS } from "quickjs-wasi";
import type { DoneMessage, ReplyMessage, WorkerMessage, WorkerStart } from "./protocol.js";
import { runScript } from "./run-script.js";

const now = () => performance.timeOrigin + performance.now();

async function main(port: NonNullable<typeof parentPort>, start: WorkerStart): Promise<void> {
  const workerStart = now();
  const interrupt = new Int32Array(start.interrupt);
  const vm = await QuickJS.create({
    wasm: start.wasm as never,
    memoryLimit: start.memoryBytes,
    maxStackSize: start.stackBytes,
    interruptHandler: () => Atomics.load(interrupt, 0) !== 0,
  });
  const replies: ReplyMessage[] = [];
  let waiting: ((reply: ReplyMessage) => void) | undefined;
  port.on("message", (reply: ReplyMessage) => {
    if (waiting === undefined) replies.push(reply);
    else {
      const wake = waiting;
      waiting = undefined;
      wake(reply);
    }
  });
  const send = (message: WorkerMessage) => port.postMessage(message);
  const scriptStart = now();
  const outcome = await runScript(
    vm,
    start.code,
    {
      call: (seq, name, args) => send({ type: "call", seq, name, args }),
      nextReply: () => {
        const queued = replies.shift();
        return queued !== undefined ? Promise.resolve(queued) : new Promise((resolve) => (waiting = resolve));
      },
    },
    start,
  );
  const done: DoneMessage = { type: "done", ...outcome, timings: { workerStart, scriptStart } };
  send(done);
}

if (parentPort !== null) await main(parentPort, workerData as WorkerStart);
