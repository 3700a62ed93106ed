// What must not outlive this process when it is interrupted (SIGINT, SIGTERM, SIGHUP): a half-made
// tree's temp folder, a temp tree under os.tmpdir(), a guarded child's process tree. Each cleanup
// is synchronous: a signal handler runs once, and the process ends right after it.

type Cleanup = () => void;

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const cleanups = new Set<Cleanup>();

/** Runs every pending cleanup now, newest first: for a process about to end early. */
export function cleanUpNow(): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // One cleanup that fails must not keep the others from running.
    }
  }
  cleanups.clear();
  listen(false);
}

function onSignal(signal: NodeJS.Signals): void {
  cleanUpNow();
  // Die of the same signal, so the shell (and npm) see an interrupted command, not a failed one.
  process.kill(process.pid, signal);
}

function listen(on: boolean): void {
  for (const signal of SIGNALS) {
    if (on) process.on(signal, onSignal);
    else process.off(signal, onSignal);
  }
}

/** Runs `cleanup` if this process is interrupted before the returned release function is called. */
export function cleanupOnSignal(cleanup: Cleanup): () => void {
  if (cleanups.size === 0) listen(true);
  cleanups.add(cleanup);
  return () => {
    if (cleanups.delete(cleanup) && cleanups.size === 0) listen(false);
  };
}
