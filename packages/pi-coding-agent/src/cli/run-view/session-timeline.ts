// The timeline of one branch of a session, from what the file already holds (Pi's format, nothing
// added): a message's numeric `timestamp` and its entry's ISO `timestamp`. For tiny-pi's models an
// assistant's `timestamp` is when its request went out and its entry's is when the answer was
// complete; the loop starts every call of an answer right then, and a tool result's `timestamp` is
// when that call ended. A user message dated before the run's last end was typed while the run
// went on: after a tool result it is a steer, after an answer a follow-up; otherwise it starts a
// new turn. Times that do not fit (a file from elsewhere) are clamped, never invented. A code
// call's nested calls (chapter 16) are spans of their own at the times its details recorded.
import type { SessionEntry } from "../../session/entries.js";
import { nestedCallsOf } from "../nested-calls-view.js";
import {
  type Lane,
  LOOP_LANE,
  type Mark,
  MODEL_LANE,
  type Span,
  type Timeline,
  type ToolInterval,
  toolLanes,
} from "./timeline.js";

export function sessionTimeline(path: readonly SessionEntry[]): Timeline {
  const model: Span[] = [];
  const loop: Span[] = [];
  const marks: Mark[] = [];
  const calls: ToolInterval[] = [];
  const open = new Map<string, ToolInterval>();
  let lastEnd = Number.NEGATIVE_INFINITY;
  let turn: Span | undefined;
  let previousRole: string | undefined;

  const closeTurn = () => {
    if (turn !== undefined) turn.end = Math.max(turn.start, lastEnd);
  };
  for (const entry of path) {
    const at = Date.parse(entry.timestamp);
    if (entry.type === "compaction") {
      marks.push({ lane: LOOP_LANE.id, at, label: `压缩：之前 ${entry.tokensBefore} tokens`, kind: "compaction" });
      lastEnd = Math.max(lastEnd, at);
      continue;
    }
    if (entry.type !== "message") continue;
    const { message } = entry;
    if (message.role === "user") {
      const typed = Number.isFinite(message.timestamp) ? message.timestamp : at;
      const during = turn !== undefined && typed < lastEnd;
      if (during) {
        const kind = previousRole === "toolResult" ? "steer" : "followUp";
        marks.push({ lane: LOOP_LANE.id, at: typed, label: kind === "steer" ? "steer" : "follow-up", kind });
      } else {
        closeTurn();
        turn = {
          lane: LOOP_LANE.id,
          start: typed,
          end: typed,
          label: `第 ${loop.length + 1} 轮`,
          state: "ok",
          entryId: entry.id,
        };
        loop.push(turn);
        lastEnd = Math.max(lastEnd, typed);
      }
    } else if (message.role === "assistant") {
      const end = Math.max(at, lastEnd);
      const sent =
        message.timestamp >= lastEnd && message.timestamp <= end ? message.timestamp : Math.min(lastEnd, end);
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      model.push({
        lane: MODEL_LANE.id,
        start: Number.isFinite(sent) ? sent : end,
        end,
        label: `请求 ${model.length + 1} · ${message.stopReason}`,
        state: failed ? "error" : "ok",
        entryId: entry.id,
      });
      for (const block of message.content) {
        if (block.type !== "toolCall") continue;
        const call: ToolInterval = {
          start: end,
          end,
          label: block.name,
          state: "open",
          callId: block.id,
          batch: entry.id,
        };
        calls.push(call);
        open.set(block.id, call);
      }
      lastEnd = end;
    } else {
      const call = open.get(message.toolCallId);
      if (call !== undefined) {
        open.delete(message.toolCallId);
        call.end = Math.max(call.start, Number.isFinite(message.timestamp) ? message.timestamp : at);
        const skipped = (message.details as { skipped?: unknown } | undefined)?.skipped === true;
        call.state = skipped ? "skipped" : message.isError ? "error" : "ok";
        call.entryId = entry.id;
        lastEnd = Math.max(lastEnd, call.end);
        for (const nested of nestedCallsOf(message)) {
          calls.push({
            start: Math.max(call.start, Math.min(nested.start, call.end)),
            end: Math.max(call.start, Math.min(nested.end, call.end)),
            label: `↳ ${nested.name}`,
            state: nested.outcome === "ok" ? "ok" : nested.outcome === "cancelled" ? "skipped" : "error",
            callId: nested.id,
            entryId: entry.id,
            batch: `${message.toolCallId}/nested`,
          });
        }
      }
    }
    previousRole = message.role;
  }
  closeTurn();
  const tools = toolLanes(calls);
  const lanes: Lane[] = [MODEL_LANE, LOOP_LANE, ...tools.lanes];
  return {
    unit: "ms",
    note: "时间取自会话文件：assistant 的 timestamp 是请求发出的时刻、条目的 timestamp 是回答完成的时刻；工具在回答完成时开始，在结果的 timestamp 结束。空闲超过 2 秒的间隔被压缩。",
    lanes,
    spans: [...model, ...loop, ...tools.spans],
    marks,
  };
}
