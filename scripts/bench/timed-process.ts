// Wall time of a command run as a whole child process, the way a learner runs it.
import type { ProcessResult } from "../lib/run/child-process.js";

export interface TimedResult extends ProcessResult {
  ms: number;
}

/** Runs `start()` and measures from spawn to exit; a non-zero exit is an error carrying the output. */
export async function timed(label: string, start: () => Promise<ProcessResult>): Promise<TimedResult> {
  const started = performance.now();
  const result = await start();
  const ms = performance.now() - started;
  if (result.code !== 0) throw new Error(`${label} exited with ${String(result.code)}:\n${result.output}`);
  return { ...result, ms };
}
