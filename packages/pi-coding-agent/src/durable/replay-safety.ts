// Which tool calls recovery may run again: only a tool that says it is replay-safe (running it
// twice changes nothing), both in the record (what it said when the intent was committed) and now.
// The built-in `read` is; `write`, `edit`, `bash` and MCP tools are not unless marked.
import type { Tool } from "@pi/core";

/** Built-in tools with no side effect. */
const SAFE_BUILT_INS: ReadonlySet<string> = new Set(["read"]);

/** A tool that declares `replaySafe: true` is replay-safe whatever its name. */
export type MaybeReplaySafe = Tool & { replaySafe?: boolean };

export function isReplaySafe(tool: MaybeReplaySafe | undefined): boolean {
  if (tool === undefined) return false;
  if (tool.replaySafe !== undefined) return tool.replaySafe;
  return SAFE_BUILT_INS.has(tool.name);
}
