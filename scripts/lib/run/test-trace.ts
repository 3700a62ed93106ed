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
  /** Whether the event loop went on beating for a second or more after the last test started. */
  loopAliveAfterStart(): boolean;
  remove(): void;
}

/** A trace for one run in the built tree `dir`, kept next to its compiled tests (`distDir`). */
export function startTestTrace(dir: string, distDir: string): TestTrace {
  runs += 1;
  const file = path.join(dir, distDir, `.focused-trace-${process.pid}-${runs}`);
  const url = `${pathToFileURL(preload).href}?trace=${encodeURIComponent(file)}&beatMs=${BEAT_MS}`;
  const release = cleanupOnSignal(() => rmSync(file, { force: true }));
  return {
    args: [`--import=${url}`],
    lastStarted() {
      const lines = traceLines(file);
      const start = lastStart(lines);
      return start === -1 ? undefined : (JSON.parse(lines[start] ?? "") as string);
    },
    loopAliveAfterStart() {
      const lines = traceLines(file);
      const start = lastStart(lines);
      return start !== -1 && (lines.length - start - 1) * BEAT_MS >= 1_000;
    },
    remove() {
      rmSync(file, { force: true });
      release();
    },
  };
}

/** How often a test process's event loop writes its beat into the trace. */
const BEAT_MS = 250;

/** The index of the last test name in `lines`, or -1. */
function lastStart(lines: string[]): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) if (lines[index]?.startsWith('"')) return index;
  return -1;
}

/** The trace's lines: JSON test names, and `0` for each beat of the event loop. */
function traceLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}
