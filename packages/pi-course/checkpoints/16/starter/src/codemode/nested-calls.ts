// Checkpoint 16 · 学习脚手架：桥。记录的类型、finish()（截短记下的文字）与 did-you-mean 的 closestName() 已经写好。
// Lab 16.2 的部分先抛出“尚未实现”的临时错误。按编号完成 `// Lab 16.2` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="桥" packages/pi-coding-agent/dist/test/16-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
    // Lab 16.2 ①：this.closed → 不运行，{ ok: false, text: "the run has ended: no more tool calls" }。
    // 已有 maxCalls 条记录 → { end: "…more than N tool calls…" }（这一次不记录，整次运行结束）。
    // Lab 16.2 ②：建一条记录 push 进 this.calls：id 是 `${this.parentId}/${this.calls.length + 1}`，outcome
    // "running"，arguments 是参数的 JSON（超过 maxArgumentBytes 就只写 `[N bytes, not kept]`）。然后按顺序：
    // 单次参数太大 → refused（一行说出 at most maxArgumentBytes）；this.totalBytes 加上之后超过
    // maxTotalArgumentBytes → 记为 refused，返回 { end: … }；this.registry 里没有这个名字 → refused，
    // closestName() 找到就是 `did you mean X?`，否则列出可调用的工具；parseSandboxJson() 解析失败或不是对象
    // （数组、null 都不算）→ refused。Buffer.byteLength(args) 是字节数。
    // Lab 16.2 ③：await executeToolCall({ type: "toolCall", id: record.id, name, arguments }, this.registry,
    // { signal: this.cancel.signal })；等待期间 close() 已经把它记成 cancelled 就返回 { ok: false, text: record.text }；
    // 否则把各段 content 的 text 用 "\n" 连起来。成功的结果要整个送进 worker 的堆：它的 Buffer.byteLength 超过
    // maxReplyBytes 就 this.finish(record, "error", 一行：`the result of ${name} is N bytes; a script may receive at most
    // M bytes per call (ask for less)`)，不送结果（失败的回答是记录里截短的文字，本来就小）。其余 isError 就是 "error"，
    // 否则 "ok"：this.finish(record, 结果, text, text)。
    throw new Error("Lab 16.2 桥 尚未实现");
  }

  /** The run is over: refuse later calls, cancel the ones still running (their records say so). */
  close(reason: string): void {
    // Lab 16.2 ④：只关一次：this.closed = true；每条 outcome 还是 "running" 的记录 this.finish(record, "cancelled",
    // `cancelled: ${reason}`)；最后 this.cancel.abort(new Error(reason))，让在途的工具收到中止。
    throw new Error("Lab 16.2 桥 尚未实现");
  }

  private finish(record: NestedCall, outcome: NestedOutcome, text: string, full = text): { ok: boolean; text: string } {
    record.outcome = outcome;
    record.end = Date.now();
    const cap = this.bounds.maxRecordedText;
    record.text = text.length > cap ? `${text.slice(0, cap)}…` : text;
    return { ok: outcome === "ok", text: outcome === "ok" ? full : record.text };
  }
}
