// What a demo run records (DemoRun, its events and compaction) and the scenarios' names: the
// vocabulary the scenarios (demo-scenarios.ts, demo-compaction.ts) write and the printers read,
// in a file of its own so that none of them imports another for its types.
import type { ModelRequest } from "@pi/core";
import type { AgentEvent, AgentRunResult } from "@pi/course";
import type { SessionEntry } from "../../../packages/pi-coding-agent/src/session/entries.js";

export const scenarioNames = [
  "readme",
  "length",
  "stop-with-calls",
  "concurrent",
  "executor-rejects",
  "abort-before",
  "abort-after-tool",
  "max-steps",
  "workspace",
  "agent",
  "compaction",
] as const;

export type ScenarioName = (typeof scenarioNames)[number];

export function isScenarioName(name: string): name is ScenarioName {
  return (scenarioNames as readonly string[]).includes(name);
}

/** One event as it was emitted (a LoopEvent, or an AgentEvent in the agent scenario), with the request or call it belongs to. */
export interface DemoEvent {
  /** 1-based position in the run's event order. */
  seq: number;
  /** The model request in progress when the event was emitted (0 before the first). */
  request: number;
  /** The call a tool event belongs to, or the call running when a message was queued. */
  callId?: string;
  event: AgentEvent;
}

export interface DemoRun {
  name: ScenarioName;
  /** The chapter's heading for the situation. */
  title: string;
  /** What the chapter says this run shows. */
  chapterNote: string;
  /** What played the run: chapter 07's loop, or chapter 09's Agent (whose events include AgentEvents). */
  through: "runAgentLoop" | "Agent";
  question: string;
  /** The request snapshots the model received, in order. */
  requests: ModelRequest[];
  events: DemoEvent[];
  result: AgentRunResult;
  /** How many times a tool (or the injected executor) actually ran. */
  toolExecutions: number;
  /** Call ids in the order their tool_end was emitted. */
  completionOrder: string[];
  /** Call ids in the order their results sit in the transcript. */
  transcriptOrder: string[];
  /** The temp workspace the tools worked in (already removed when the run is returned). */
  workspace?: string;
  /** The compaction scenario's compactions, each after the summarisation request it sent. */
  compactions?: DemoCompaction[];
  /** The session entries the run left (the compaction scenario's, with its compaction entry). */
  entries?: SessionEntry[];
}

export interface DemoCompaction {
  /** The summarisation request's number among `requests`. */
  request: number;
  /** The line tiny-pi prints for it. */
  line: string;
  firstKeptEntryId: string;
  /** The role of the first kept message (always "user": an interaction starts there). */
  firstKept?: string;
  tokensBefore: number;
}
