// Preloaded (--import) into a focused run's test processes by test-trace.ts: before each test,
// its name is appended to the trace file named in this module's URL, synchronously, so the name
// is there even when the test then spins in a synchronous loop and its process is killed.
import { appendFileSync } from "node:fs";

const trace = new URL(import.meta.url).searchParams.get("trace");
// NODE_TEST_CONTEXT is set only in the processes that run test files, not in the runner.
if (trace !== null && process.env.NODE_TEST_CONTEXT !== undefined) {
  const { beforeEach } = await import("node:test");
  beforeEach((context) => {
    appendFileSync(trace, `${JSON.stringify(context.name)}\n`);
  });
}
