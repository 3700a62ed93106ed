// Preloaded (--import) into a focused run's test processes by test-trace.ts: before each test,
// its name is appended to the trace file named in this module's URL, synchronously, so the name
// is there even when the test then spins in a synchronous loop and its process is killed. A beat
// (`0`) is appended every `beatMs` milliseconds (test-trace.ts sets it) while the process's event loop runs.
//
// A test process spinning in a learner's synchronous loop also watches its parent from a worker
// thread (the only code that still runs): when the runner that started it is gone, however it
// went (killed by its watchdog before it could fork this process's kill, or ended by a broken
// stdout pipe), this process ends itself instead of spinning on as an orphan.
import { appendFileSync } from "node:fs";

const params = new URL(import.meta.url).searchParams;
const trace = params.get("trace");
// NODE_TEST_CONTEXT is set only in the processes that run test files, not in the runner.
if (trace !== null && process.env.NODE_TEST_CONTEXT !== undefined) {
  const { beforeEach } = await import("node:test");
  beforeEach((context) => {
    appendFileSync(trace, `${JSON.stringify(context.name)}\n`);
  });
  // A heartbeat of the event loop: a test stopped while the loop still beats was waiting on a
  // promise that never settles, not spinning in a synchronous loop (which stops the beat).
  setInterval(() => appendFileSync(trace, "0\n"), Number(params.get("beatMs"))).unref();
  const { Worker } = await import("node:worker_threads");
  // process.ppid is read once at start-up, so the worker asks the system: /proc on Linux (where a
  // dead runner nobody reaps stays a zombie that signal 0 still finds), else signal 0.
  const orphanWatch = new Worker(
    `const { readFileSync } = require("node:fs");
     const { workerData: runner } = require("node:worker_threads");
     const parentNow = () => {
       const stat = readFileSync("/proc/self/stat", "latin1");
       return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
     };
     const runnerGone = () => {
       if (process.platform === "linux") return parentNow() !== runner;
       try { process.kill(runner, 0); return false; } catch (error) { return error.code === "ESRCH"; }
     };
     setInterval(() => { if (runnerGone()) process.kill(process.pid, "SIGKILL"); }, 200);`,
    { eval: true, workerData: process.ppid },
  );
  orphanWatch.unref();
}
