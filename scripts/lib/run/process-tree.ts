// Guarded children of the course machinery are killed as whole trees (process-tree.ts in
// @pi/coding-agent's src/process/, shared with tiny-pi) when this process exits or is interrupted.
import type { ChildProcess } from "node:child_process";
import { killTree } from "../../../packages/pi-coding-agent/src/process/process-tree.js";
import { cleanupOnSignal } from "../cleanup-on-signal.js";

const guarded = new Set<ChildProcess>();
// A watch that is stopped with Ctrl-C, or a CLI that exits early, must not leave a guarded run behind.
process.on("exit", () => {
  for (const child of guarded) killTree(child);
});

/** Keeps `child` on the list of trees killed when this process exits or is interrupted, until it closes. */
export function guardUntilClosed(child: ChildProcess): void {
  guarded.add(child);
  const release = cleanupOnSignal(() => killTree(child));
  child.once("close", () => {
    guarded.delete(child);
    release();
  });
}
