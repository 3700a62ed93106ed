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
    const index = this.indexOf(fragment);
    let call = this.byIndex.get(index);
    if (call === undefined) {
      call = { index, id: "", name: "", arguments: "" };
      this.byIndex.set(index, call);
    }
    this.lastIndex = index;
    // Some servers repeat the id (or the name) on every fragment: the first one wins.
    if (call.id === "" && fragment.id) call.id = fragment.id;
    const fn = fragment.function;
    if (call.name === "" && fn?.name) call.name = fn.name;
    const piece = fn?.arguments;
    if (typeof piece !== "string" || piece === "") return "";
    call.arguments += piece;
    return piece;
  }

  /**
   * The calls in index order, their arguments parsed. A bad call keeps `{}` so the loop can still
   * pair it. Every id is unique: a call reusing an earlier call's id gets a fresh one (see uniqueId).
   */
  finish(): AssembledCalls {
    let problem: string | undefined;
    const used = new Set<string>();
    const calls = [...this.byIndex.values()]
      .sort((a, b) => a.index - b.index)
      .map((partial): ToolCall => {
        const id = uniqueId(partial.id === "" ? `call_${partial.index}` : partial.id, partial.index, used);
        const parsed = parseArguments(partial);
        if (problem === undefined) {
          if (partial.name === "") problem = `tool call ${id} (index ${partial.index}) has no name`;
          else if ("problem" in parsed)
            problem = `the arguments of tool call "${partial.name}" (${id}) ${parsed.problem}`;
        }
        return { type: "toolCall", id, name: partial.name, arguments: "value" in parsed ? parsed.value : {} };
      });
    return { calls, problem };
  }

  /** `index` is required by the protocol; without it a named fragment starts a new call, others continue the last. */
  private indexOf(fragment: Fragment): number {
    if (typeof fragment.index === "number") return fragment.index;
    if (fragment.function?.name || this.lastIndex < 0) return Math.max(this.lastIndex, ...this.byIndex.keys()) + 1;
    return this.lastIndex;
  }
}
