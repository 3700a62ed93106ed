// How tiny-pi ends. No process it started may outlive it: bash commands run in sessions of their
// own (a terminal's SIGHUP or a group kill does not reach them), and a command that ignores SIGTERM
// survives an abort until bash's SIGKILL, which an exit would cancel. So tiny-pi guards its own
// descendants with the course's watchdog from the start, and every way out, a planned exit or a
// SIGTERM or SIGHUP, first has the watchdog kill them all. SIGKILL runs no handler; then the
// watchdog, whose pipe from tiny-pi closes, kills them right after.
import { constants } from "node:os";
import { guardThisProcess, type SelfGuard } from "../process/parent-watchdog.js";

let guard: SelfGuard | undefined;
let leaving = false;

// A reader that went away (`tiny-pi … | head -c 1`) makes the next write fail with EPIPE, which as
// an unhandled 'error' event is a stack trace. tiny-pi ends then, quietly, with the code a shell
// gives a program killed by SIGPIPE; leave() still sweeps what it started.
const CLOSED_OUTPUT_EXIT = 128 + (constants.signals.SIGPIPE ?? 13);
let outputClosed = false;
for (const output of [process.stdout, process.stderr]) {
  output.on("error", () => {
    outputClosed = true;
    leave(CLOSED_OUTPUT_EXIT);
  });
}

/** Guards every process tiny-pi starts from now on; SIGTERM and SIGHUP end tiny-pi through `leave`. */
export function guardChildren(): void {
  if (guard !== undefined) return;
  guard = guardThisProcess();
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => leave(128 + (constants.signals[signal] ?? 0)));
  }
}

/** Exits with `code` once stdout and stderr are flushed and every process tiny-pi started is gone. */
export function leave(code: number): void {
  if (leaving) return;
  leaving = true;
  void flushed(process.stdout)
    .then(() => flushed(process.stderr))
    .then(() => guard?.sweep())
    .then(() => process.exit(outputClosed ? CLOSED_OUTPUT_EXIT : code));
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) return resolve();
    stream.write("", (error) => {
      if (error) outputClosed = true;
      resolve();
    });
  });
}
