// Lab 16.2 · 桥: The host side of the bridge: each `tools.<name>(args)` from a script becomes a recorded nested
// call with id `<parent>/<n>`, run through the same registry the model's own calls use (so the
// permission gate and protected paths apply unchanged). Only the callable tools it was given are
// offered. A failing call rejects only its own promise in the script; the records of the others stay.
// No reply into the worker is bigger than maxReplyBytes: a result past it fails its call (see limits.ts).
import { executeToolCall, type Tool, ToolRegistry } from "@pi/core";
import { closestName } from "./did-you-mean.js";
import type { CodeLimits } from "./limits.js";
import { parseSandboxJson } from "./safe-json.js";

/** "running" only while the run lasts: close() turns what is still running into "cancelled". */
export type NestedOutcome = "running" | "ok" | "error" | "refused" | "cancelled";

export interface NestedCall {
  id: string;
  name: string;
  /** JSON text of the arguments as the script sent them (bounded by maxArgumentBytes). */
  arguments: string;
  outcome: NestedOutcome;
  /** The tool's text or error, at most maxRecordedText characters. */
  text: string;
  /** Epoch ms when the bridge took the call and when its outcome was known. */
  start: number;
  end: number;
}

/** What the script's promise gets, or `end`: the run must stop (a bound of the whole run was crossed). */
export type BridgeAnswer = { ok: boolean; text: string } | { end: string };

type Bounds = Pick<
  CodeLimits,
  "maxCalls" | "maxArgumentBytes" | "maxTotalArgumentBytes" | "maxReplyBytes" | "maxRecordedText"
>;

export class NestedCallBridge {
  readonly calls: NestedCall[] = [];
  private readonly registry = new ToolRegistry();
  private readonly names: string[];
  private readonly cancel = new AbortController();
  private totalBytes = 0;
  private closed = false;

  constructor(
    private readonly parentId: string,
    tools: readonly Tool[],
    private readonly bounds: Bounds,
  ) {
    for (const tool of tools) this.registry.register(tool);
    this.names = tools.map((tool) => tool.name);
  }

  /** One nested call, start to end. After close() every call is refused unrun. */
  async call(name: string, args: string): Promise<BridgeAnswer> {
    if (this.closed) return { ok: false, text: "the run has ended: no more tool calls" };
    if (this.calls.length >= this.bounds.maxCalls) {
      return { end: `the script made more than ${this.bounds.maxCalls} tool calls (the limit of one run)` };
    }
    const bytes = Buffer.byteLength(args);
    const record: NestedCall = {
      id: `${this.parentId}/${this.calls.length + 1}`,
      name,
      arguments: bytes > this.bounds.maxArgumentBytes ? `[${bytes} bytes, not kept]` : args,
      outcome: "running",
      text: "",
      start: Date.now(),
      end: Date.now(),
    };
    this.calls.push(record);
    const refused = (text: string) => this.finish(record, "refused", text);
    if (bytes > this.bounds.maxArgumentBytes) {
      return refused(
        `arguments of ${name} are ${bytes} bytes; one call may send at most ${this.bounds.maxArgumentBytes}`,
      );
    }
    this.totalBytes += bytes;
    if (this.totalBytes > this.bounds.maxTotalArgumentBytes) {
      this.finish(record, "refused", "argument budget spent");
      return {
        end: `the script's tool calls sent more than ${this.bounds.maxTotalArgumentBytes} bytes of arguments in total`,
      };
    }
    if (this.registry.get(name) === undefined) {
      const near = closestName(name, this.names);
      const hint =
        near === undefined ? `callable tools: ${this.names.join(", ") || "(none)"}` : `did you mean ${near}?`;
      return refused(`unknown tool ${JSON.stringify(name)}: ${hint}`);
    }
    let parsed: unknown;
    try {
      parsed = parseSandboxJson(args);
    } catch {
      return refused(`arguments of ${name} are not JSON`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return refused(`arguments of ${name} must be an object, like tools.${name}({ ... })`);
    }
    const signal = this.cancel.signal;
    const result = await executeToolCall(
      { type: "toolCall", id: record.id, name, arguments: parsed as Record<string, unknown> },
      this.registry,
      { signal },
    );
    if (record.outcome === "cancelled") return { ok: false, text: record.text };
    const text = result.content.map((part) => part.text).join("\n");
    // An error's reply is its record's text, already short; a result is sent whole, so it is bounded here.
    const replyBytes = result.isError ? 0 : Buffer.byteLength(text);
    if (replyBytes > this.bounds.maxReplyBytes) {
      return this.finish(
        record,
        "error",
        `the result of ${name} is ${replyBytes} bytes; a script may receive at most ${this.bounds.maxReplyBytes} bytes per call (ask for less)`,
      );
    }
    return this.finish(record, result.isError ? "error" : "ok", text, text);
  }

  /** The run is over: refuse later calls, cancel the ones still running (their records say so). */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const record of this.calls) {
      if (record.outcome === "running") this.finish(record, "cancelled", `cancelled: ${reason}`);
    }
    this.cancel.abort(new Error(reason));
  }

  private finish(record: NestedCall, outcome: NestedOutcome, text: string, full = text): { ok: boolean; text: string } {
    record.outcome = outcome;
    record.end = Date.now();
    const cap = this.bounds.maxRecordedText;
    record.text = text.length > cap ? `${text.slice(0, cap)}…` : text;
    return { ok: outcome === "ok", text: outcome === "ok" ? full : record.text };
  }
}
