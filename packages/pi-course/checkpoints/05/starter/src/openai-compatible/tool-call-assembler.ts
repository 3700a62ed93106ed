// Checkpoint 05 · 学习脚手架（6 个教学文件的第 6 个）：工具调用片段 → 完整的调用。parseArguments()、uniqueId()、indexOf()
// 与 pending 已经写好；Lab 5.5 的 accept() 与 finish() 先抛出“尚未实现”。这一段还包括 chunk-mapper.ts 里的
// 两处 Lab 5.5。完成后只运行这一段的测试：
//   npm run build -w @pi/ai
//   node --test --test-name-pattern="重组调用" packages/pi-ai/dist/test/05-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// Tool-call fragments → whole calls, assembled by `index` so interleaved parallel calls come apart.
import type { ToolCall } from "@pi/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";

type Fragment = ChatCompletionChunk.Choice.Delta.ToolCall;

interface PartialCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

export interface AssembledCalls {
  calls: ToolCall[];
  /** Why the calls cannot run, naming the first bad one; undefined when all are well-formed. */
  problem: string | undefined;
}

/** The arguments as an object: "" is `{}`; anything else must be a JSON object. */
function parseArguments(call: PartialCall): { value: Record<string, unknown> } | { problem: string } {
  const source = call.arguments.trim();
  if (source === "") return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    return { problem: `are not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: "are not a JSON object" };
  return { value: value as Record<string, unknown> };
}

/**
 * Two calls sharing an id would get two results paired to one call. The later call is renamed
 * `<id>_<index>` instead (then `<id>_<index>_2`, …): the assistant message carries the new id, so
 * the session records it and the server gets back a transcript that pairs each result to one call.
 */
function uniqueId(id: string, index: number, used: Set<string>): string {
  let unique = id;
  for (let n = 1; used.has(unique); n += 1) unique = n === 1 ? `${id}_${index}` : `${id}_${index}_${n}`;
  used.add(unique);
  return unique;
}

export class ToolCallAssembler {
  private readonly byIndex = new Map<number, PartialCall>();
  private lastIndex = -1;

  /** Whether any fragment has arrived, i.e. there are calls to finish. */
  get pending(): boolean {
    return this.byIndex.size > 0;
  }

  /** Adds one fragment; returns its piece of the arguments ("" when it carries none). */
  accept(fragment: Fragment): string {
    // Lab 5.5 ①：调用按 index 分开，绝不按“到达顺序”或“id 变了”：
    //   1. const index = this.indexOf(fragment)；this.byIndex 里没有这个 index 就新建
    //      { index, id: "", name: "", arguments: "" } 放进去；把 this.lastIndex 记成 index；
    //   2. id 与 function.name 第一次出现时记下（有的服务器每个片段都重复它们：第一个算数）；
    //   3. function.arguments 是非空字符串时追加到这个调用的 arguments，并返回它；否则返回 ""。
    throw new Error("Lab 5.5 按 index 重组并行调用 尚未实现");
  }

  /**
   * The calls in index order, their arguments parsed. A bad call keeps `{}` so the loop can still
   * pair it. Every id is unique: a call reusing an earlier call's id gets a fresh one (see uniqueId).
   */
  finish(): AssembledCalls {
    // Lab 5.5 ②：按 index 从小到大，把每个 PartialCall 变成 { type: "toolCall", id, name, arguments }：
    //   id 是 uniqueId(partial.id，为 "" 时用 `call_${index}`, index, used)（used 是这次 finish 的一个 Set）；
    //   arguments 是 parseArguments() 的 value，解析不了时是 {}。
    // problem 只记第一处：没有名字 → `tool call ${id} (index ${index}) has no name`；参数有问题 →
    // `the arguments of tool call "${name}" (${id}) ${parsed.problem}`。返回 { calls, problem }。
    throw new Error("Lab 5.5 按 index 重组并行调用 尚未实现");
  }

  /** `index` is required by the protocol; without it a named fragment starts a new call, others continue the last. */
  private indexOf(fragment: Fragment): number {
    if (typeof fragment.index === "number") return fragment.index;
    if (fragment.function?.name || this.lastIndex < 0) return Math.max(this.lastIndex, ...this.byIndex.keys()) + 1;
    return this.lastIndex;
  }
}
