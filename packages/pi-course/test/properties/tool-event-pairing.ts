import assert from "node:assert/strict";
import type { LoopEvent } from "../../src/agent-loop.js";

/** Every tool_start has exactly one later tool_end for the same call id, and no tool_end comes without one. */
export function checkToolEventsPaired(events: readonly LoopEvent[]): void {
  const open = new Map<string, number>();
  events.forEach((event, index) => {
    if (event.type === "tool_start") open.set(event.call.id, (open.get(event.call.id) ?? 0) + 1);
    if (event.type !== "tool_end") return;
    const id = event.result.toolCallId;
    const running = open.get(id) ?? 0;
    assert.ok(running > 0, `the tool_end of ${id} (event ${index}) has no tool_start before it`);
    open.set(id, running - 1);
  });
  const unpaired = [...open].filter(([, running]) => running > 0).map(([id]) => id);
  assert.deepEqual(unpaired, [], `tool_start without its tool_end: ${unpaired.join(", ")}`);
}
