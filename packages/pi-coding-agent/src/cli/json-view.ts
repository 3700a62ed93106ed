// --json: every LoopEvent as one line of JSON on stdout, nothing else there.
import type { LoopEvent } from "@pi/course";

export function jsonView(out: { write(text: string): unknown }): (event: LoopEvent) => void {
  return (event) => {
    out.write(`${JSON.stringify(event)}\n`);
  };
}
