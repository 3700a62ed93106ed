// Which test a focused run was in when it had to be stopped: a synchronous loop keeps Node's
// runner from reporting anything about the file, so the test processes write each test's name
// to a trace file as it starts (test-start-trace.mjs). The file lives in the tree's build output
// and is removed after the run, or on a signal during it.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cleanupOnSignal } from "../cleanup-on-signal.js";

const preload = path.join(path.dirname(fileURLToPath(import.meta.url)), "test-start-trace.mjs");
let runs = 0;

export interface TestTrace {
  /** Node options that make the test processes write the trace. */
  args: string[];
  /** The last test that started, if any did. */
  lastStarted(): string | undefined;
  remove(): void;
}

/** A trace for one run in the built tree `dir`, kept next to its compiled tests (`distDir`). */
export function startTestTrace(dir: string, distDir: string): TestTrace {
  runs += 1;
  const file = path.join(dir, distDir, `.focused-trace-${process.pid}-${runs}`);
  const url = `${pathToFileURL(preload).href}?trace=${encodeURIComponent(file)}`;
  const release = cleanupOnSignal(() => rmSync(file, { force: true }));
  return {
    args: [`--import=${url}`],
    lastStarted() {
      try {
        const lines = readFileSync(file, "utf8").trim().split("\n");
        const last = lines.at(-1);
        return last === undefined || last === "" ? undefined : (JSON.parse(last) as string);
      } catch {
        return undefined;
      }
    },
    remove() {
      rmSync(file, { force: true });
      release();
    },
  };
}
