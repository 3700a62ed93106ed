// Prints a DemoRun as the chapter's timelines: the events in order (model events under their
// request, tool events under their call), the transcript and the result, with Chinese labels.
import type { Message, ToolCall, ToolResultMessage } from "@pi/core";
import type { AgentEvent } from "@pi/course";
import type { Style } from "../terminal-style.js";
import type { DemoCompaction, DemoEvent, DemoRun } from "./demo-run.js";

const TYPE_WIDTH = 19;
const NESTED = "  ";
const REASON_WIDTH = 10;

export function formatRun(run: DemoRun, style: Style): string {
  return [
    style.title(run.title),
    `${style.dim("用户：")}${run.question}`,
    `${style.dim("对照章节：")}${run.chapterNote}`,
    ...(run.workspace === undefined ? [] : [`${style.dim("工作区：")}${run.workspace}（临时目录，运行结束后已删除）`]),
    "",
    style.heading(`${run.through === "Agent" ? "AgentEvent" : "LoopEvent"}（按发出顺序）`),
    ...timelineLines(run, style),
    "",
    ...orderLines(run, style),
    style.heading("transcript（最终 messages）"),
    ...run.result.messages.map((message) => `      ${message.role.padEnd(12)}${describeMessage(message)}`),
    `      ${style.dim(rolesOf(run.result.messages))}`,
    "",
    style.heading("结果"),
    ...resultLines(run).map(([label, value]) => `      ${label.padEnd(17)}${value}`),
  ].join("\n");
}

function timelineLines(run: DemoRun, style: Style): string[] {
  if (run.events.length === 0) return [`      ${style.dim("（没有事件）")}`];
  const calls = callsById(run.events);
  const lines: string[] = [];
  let group: string | undefined;
  const compactions = [...(run.compactions ?? [])];
  for (const item of run.events) {
    const nextGroup = groupOf(item);
    // A summarisation request has no LoopEvents: it is shown where it happened, before the request after it.
    while (compactions[0] !== undefined && compactions[0].request < item.request) {
      lines.push(...compactionLines(compactions.shift() as DemoCompaction, run, style));
    }
    if (nextGroup !== undefined && nextGroup !== group) lines.push(`      ${groupHeader(item, run, calls, style)}`);
    group = nextGroup;
    const indent = nextGroup === undefined ? "" : NESTED;
    const [type, detail] = describeEvent(item.event, style);
    const number = style.dim(String(item.seq).padStart(4));
    lines.push(`${number}  ${indent}${style.name(type.padEnd(TYPE_WIDTH - indent.length))}${detail}`.trimEnd());
  }
  return lines;
}

function compactionLines(compaction: DemoCompaction, run: DemoRun, style: Style): string[] {
  const roles = run.requests[compaction.request - 1]?.messages.map((message) => message.role).join(", ") ?? "";
  return [
    `      ${style.heading(`请求 ${compaction.request} · 摘要请求（不带工具）收到 [${roles}]`)}`,
    `            ${compaction.line}`,
    `            ${style.dim(`compaction 条目：firstKeptEntryId ${compaction.firstKeptEntryId}（${compaction.firstKept ?? "?"}，一段交互的开头），tokensBefore ${compaction.tokensBefore}`)}`,
  ];
}

/** Model events belong to their request, tool events to their call; the rest stand alone. */
function groupOf(item: DemoEvent): string | undefined {
  if (item.event.type === "model_event") return `request:${item.request}`;
  return item.callId === undefined ? undefined : `call:${item.callId}`;
}

function groupHeader(item: DemoEvent, run: DemoRun, calls: Map<string, ToolCall>, style: Style): string {
  if (item.event.type === "model_event") {
    const request = run.requests[item.request - 1];
    const roles = request ? request.messages.map((message) => message.role).join(", ") : "";
    return style.heading(`请求 ${item.request} · model.stream() 收到 [${roles}]`);
  }
  const call = item.callId === undefined ? undefined : calls.get(item.callId);
  return style.heading(`调用 ${call ? describeCall(call) : item.callId}`);
}

function describeEvent(event: AgentEvent, style: Style): [string, string] {
  switch (event.type) {
    case "model_event": {
      const inner = event.event;
      const detail = (() => {
        switch (inner.type) {
          case "start":
            return "";
          case "text_delta":
            return JSON.stringify(inner.delta);
          case "toolcall_delta":
            return inner.delta;
          case "toolcall_end":
            return `${inner.toolCall.id} ${inner.toolCall.name}`;
          case "done":
            return inner.reason;
          case "error":
            return [inner.reason, inner.message].filter(Boolean).join(" ");
        }
      })();
      return ["model_event", `${inner.type.padEnd(16)}${detail}`];
    }
    case "assistant_message":
      return ["assistant_message", `${event.message.stopReason.padEnd(REASON_WIDTH)}${describeMessage(event.message)}`];
    case "tool_start":
      return ["tool_start", ""];
    case "tool_progress":
      return ["tool_progress", firstLine(event.content.map((block) => block.text).join(" "))];
    case "tool_end":
      return ["tool_end", resultStatus(event.result, style)];
    case "tool_skipped":
      return ["tool_skipped", resultStatus(event.result, style)];
    case "turn_end":
      return ["turn_end", `${event.reason.padEnd(REASON_WIDTH)}steps=${event.steps}`];
    case "agent_start":
      return ["agent_start", ""];
    case "agent_end":
      return ["agent_end", `${event.result.reason.padEnd(REASON_WIDTH)}steps=${event.result.steps}`];
    case "queued":
      return [`queued(${event.kind})`, describeMessage(event.message)];
    case "retry":
      return ["retry", `第 ${event.attempt} 次，等待 ${event.delayMs} ms  ${event.errorMessage}`];
  }
}

function resultStatus(result: ToolResultMessage, style: Style): string {
  const skip = skipReasonOf(result);
  const status = skip ? style.bad(`skipped(${skip})`) : result.isError ? style.bad("isError") : style.ok("ok");
  return `${status}  ${firstLine(resultText(result))}`;
}

function orderLines(run: DemoRun, style: Style): string[] {
  if (run.completionOrder.length < 2) return [];
  return [
    style.heading("两种顺序"),
    `      ${"完成顺序".padEnd(8)}tool_end    ${run.completionOrder.join(" → ")}`,
    `      ${"写入顺序".padEnd(8)}toolResult  ${run.transcriptOrder.join(" → ")}`,
    "",
  ];
}

function resultLines(run: DemoRun): [string, string][] {
  return [
    ["reason", run.result.reason],
    ["steps", String(run.result.steps)],
    ["model requests", String(run.requests.length)],
    ["tool executions", String(run.toolExecutions)],
  ];
}

function callsById(events: DemoEvent[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const { event } of events) {
    if (event.type !== "assistant_message") continue;
    for (const block of event.message.content) if (block.type === "toolCall") calls.set(block.id, block);
  }
  return calls;
}

/** One line per message, in the chapter's notation: `我先读取项目说明。 + read(call-1, README.md)`. */
function describeMessage(message: Message): string {
  switch (message.role) {
    case "user":
      return typeof message.content === "string"
        ? message.content
        : message.content.map((block) => block.text).join(" ");
    case "assistant": {
      const parts = message.content.map((block) => (block.type === "text" ? block.text : describeCall(block)));
      if (message.errorMessage) parts.push(`(${message.errorMessage})`);
      return parts.join(" + ") || "（空）";
    }
    case "toolResult": {
      const skip = skipReasonOf(message);
      const status = skip ? `skipped(${skip}) ` : message.isError ? "isError " : "";
      return `${message.toolCallId} → ${status}${firstLine(resultText(message))}`;
    }
  }
}

function describeCall(call: ToolCall): string {
  const values = Object.values(call.arguments).map((value) =>
    typeof value === "string" ? value : JSON.stringify(value),
  );
  return `${call.name}(${[call.id, ...values].join(", ")})`;
}

function skipReasonOf(result: ToolResultMessage): string | undefined {
  const details = result.details as { skipped?: unknown; reason?: unknown } | undefined;
  return details?.skipped === true ? String(details.reason) : undefined;
}

function resultText(result: ToolResultMessage): string {
  return result.content.map((block) => block.text).join("\n");
}

function firstLine(value: string): string {
  const [first = "", ...rest] = value.split("\n");
  return rest.length > 0 ? `${first} …` : first;
}

function rolesOf(messages: Message[]): string {
  return messages.map((message) => message.role).join(" → ");
}
