// MCP servers can bring dozens of tools; declaring them all costs tokens every turn. So the MCP tools
// of a server not marked `direct` are deferred behind chapter 15's tool_search (tool-exposure.ts
// re-registers the wired registry with each tool's exposure), and the system prompt names only the
// tools the first request declares.
import { TOOL_SEARCH } from "../exposure/index.js";

/** The names a system prompt lists: the declared ones at the start (deferred ones out, tool_search in). */
export function declaredAtStart(names: readonly string[], deferred: ReadonlySet<string>): string[] {
  if (deferred.size === 0) return [...names];
  return [...names.filter((name) => !deferred.has(name)), TOOL_SEARCH];
}
