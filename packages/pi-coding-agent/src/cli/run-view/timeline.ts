// The run view's timeline: swimlanes of spans on one axis, built in Node from a session (times in
// ms from the recorded timestamps) or from a demo run (the axis is the run's event order), and
// drawn by the page as it is. Tool calls that overlap get lanes of their own; a lane is reused
// once its call has ended, so a long session does not grow one lane per call.

export type LaneKind = "model" | "loop" | "tool";

export interface Lane {
  id: string;
  label: string;
  kind: LaneKind;
}

export interface Span {
  lane: string;
  start: number;
  end: number;
  label: string;
  /** ok, error (an isError result or a failed answer), skipped, or open (no result was recorded). */
  state: "ok" | "error" | "skipped" | "open";
  /** The tool call the span is, for tool lanes. */
  callId?: string;
  /** The session entry the span comes from, when there is one. */
  entryId?: string;
}

export interface Mark {
  lane: string;
  at: number;
  label: string;
  kind: "steer" | "followUp" | "compaction" | "queued";
}

export interface Timeline {
  /** ms: real durations from timestamps; event: one step per recorded event (the demo's scripted runs take no time). */
  unit: "ms" | "event";
  /** Where the times come from, shown under the timeline. */
  note: string;
  lanes: Lane[];
  spans: Span[];
  marks: Mark[];
}

export const MODEL_LANE: Lane = { id: "model", label: "模型流", kind: "model" };
export const LOOP_LANE: Lane = { id: "loop", label: "loop", kind: "loop" };

/** A tool call's interval before it has a lane; `batch` names the answer that made the call. */
export type ToolInterval = Omit<Span, "lane"> & { batch: string };

/**
 * Lanes for tool calls: each call, in call order, takes the first lane whose last call belongs to
 * an earlier batch and has ended, so the calls of one batch (which the loop runs at the same time)
 * always sit in lanes of their own, listed in call order.
 */
export function toolLanes(calls: readonly ToolInterval[]): { lanes: Lane[]; spans: Span[] } {
  const last: { batch: string; end: number }[] = [];
  const spans: Span[] = [];
  for (const { batch, ...call } of calls) {
    let index = last.findIndex((held) => held.batch !== batch && held.end <= call.start);
    if (index === -1) index = last.length;
    last[index] = { batch, end: call.end };
    spans.push({ ...call, lane: `tool-${index + 1}` });
  }
  const lanes = last.map((_, index) => ({
    id: `tool-${index + 1}`,
    label: `工具 ${index + 1}`,
    kind: "tool" as const,
  }));
  return { lanes, spans };
}
