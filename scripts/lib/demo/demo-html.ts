// `npm run demo -- --scenario NAME --html FILE.html`: the run as tiny-pi's run page. The transcript
// becomes a linear session (the compaction scenario's own session entries, with its compaction
// entry); the timeline's axis is the run's event order, since the scripted model takes no time:
// a span runs from the event that starts it to the event that ends it.
import { renderRunPage } from "../../../packages/pi-coding-agent/src/cli/run-view/page.js";
import type { RunView } from "../../../packages/pi-coding-agent/src/cli/run-view/run-view.js";
import {
  LOOP_LANE,
  type Mark,
  MODEL_LANE,
  type Span,
  type Timeline,
  type ToolInterval,
  toolLanes,
} from "../../../packages/pi-coding-agent/src/cli/run-view/timeline.js";
import { messageEntry, type SessionEntry } from "../../../packages/pi-coding-agent/src/session/entries.js";
import type { DemoRun } from "./demo-run.js";

export function demoPage(run: DemoRun): string {
  return renderRunPage(demoView(run));
}

export function demoView(run: DemoRun): RunView {
  const entries = run.entries ?? linearEntries(run);
  return {
    title: `npm run demo -- --scenario ${run.name} · ${run.title}`,
    subtitle: `${run.through} · ${run.chapterNote}`,
    entries,
    leafId: entries.at(-1)?.id ?? null,
    timeline: demoTimeline(run),
  };
}

/** The transcript as a chain of message entries with ids 00000001, 00000002, … */
function linearEntries(run: DemoRun): SessionEntry[] {
  const start = Date.UTC(2026, 0, 1);
  return run.result.messages.map((message, index) =>
    messageEntry(message, index === 0 ? null : hexId(index), hexId(index + 1), new Date(start + index)),
  );
}

function hexId(n: number): string {
  return n.toString(16).padStart(8, "0");
}

export function demoTimeline(run: DemoRun): Timeline {
  const model: Span[] = [];
  const loop: Span[] = [];
  const marks: Mark[] = [];
  const calls: ToolInterval[] = [];
  const open = new Map<string, ToolInterval>();
  const requestStart = new Map<number, number>();
  /** Queued messages waiting for the request (steer) or the turn (follow-up) they enter with. */
  let steers = 0;
  let followUps = 0;
  let turnStart: number | undefined;
  for (const { seq, request, event } of run.events) {
    if (turnStart === undefined) {
      turnStart = seq;
      if (followUps > 0) marks.push({ lane: LOOP_LANE.id, at: seq, label: "follow-up 进入", kind: "followUp" });
      followUps = 0;
    }
    if (event.type === "model_event" && !requestStart.has(request)) {
      requestStart.set(request, seq);
      const compaction = run.compactions?.find((each) => each.request === request - 1);
      if (compaction !== undefined) {
        marks.push({
          lane: LOOP_LANE.id,
          at: seq,
          label: `压缩：之前 ${compaction.tokensBefore} tokens`,
          kind: "compaction",
        });
      }
      if (steers > 0) marks.push({ lane: LOOP_LANE.id, at: seq, label: "steer 进入", kind: "steer" });
      steers = 0;
    }
    switch (event.type) {
      case "assistant_message": {
        const failed = event.message.stopReason === "error" || event.message.stopReason === "aborted";
        model.push({
          lane: MODEL_LANE.id,
          start: requestStart.get(request) ?? seq,
          end: seq,
          label: `请求 ${request} · ${event.message.stopReason}`,
          state: failed ? "error" : "ok",
        });
        break;
      }
      case "tool_start": {
        const call: ToolInterval = {
          start: seq,
          end: seq,
          label: event.call.name,
          state: "open",
          callId: event.call.id,
          batch: String(request),
        };
        calls.push(call);
        open.set(event.call.id, call);
        break;
      }
      case "tool_end":
      case "tool_skipped": {
        const id = event.result.toolCallId;
        const call = open.get(id) ?? {
          start: seq,
          end: seq,
          label: event.result.toolName,
          state: "open",
          callId: id,
          batch: String(request),
        };
        if (!open.has(id)) calls.push(call);
        open.delete(id);
        call.end = seq;
        call.state = event.type === "tool_skipped" ? "skipped" : event.result.isError ? "error" : "ok";
        break;
      }
      case "queued":
        marks.push({
          lane: LOOP_LANE.id,
          at: seq,
          label: event.kind === "steer" ? "steer 排队" : "follow-up 排队",
          kind: "queued",
        });
        if (event.kind === "steer") steers += 1;
        else followUps += 1;
        break;
      case "turn_end":
        loop.push({
          lane: LOOP_LANE.id,
          start: turnStart,
          end: seq,
          label: `第 ${loop.length + 1} 轮 · ${event.reason}`,
          state: event.reason === "stop" ? "ok" : "error",
        });
        turnStart = undefined;
        break;
    }
  }
  const tools = toolLanes(calls);
  return {
    unit: "event",
    note: "演示的脚本模型不花时间：横轴是这次运行的事件顺序（每个事件一格），不是毫秒。工具泳道按调用顺序排列，右端是各自 tool_end 的位置，所以结束的先后就是完成顺序。",
    lanes: [MODEL_LANE, LOOP_LANE, ...tools.lanes],
    spans: [...model, ...loop, ...tools.spans],
    marks,
  };
}
