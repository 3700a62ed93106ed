// MCP servers can bring dozens of tools; declaring them all costs tokens every turn. So the MCP tools
// of a server not marked `direct` are deferred behind chapter 15's tool_search: the model finds them
// by what they do and they are declared from its next request on. The wired registry (every tool
// already behind the extensions' hooks and the permission gate) is re-registered into an
// ExposedRegistry with each tool's exposure, and tool_search beside them.
import type { ToolRegistry } from "@pi/core";
import { ExposedRegistry, TOOL_SEARCH, toolSearchTool } from "../exposure/index.js";

/** `tools` as they are when nothing is deferred; otherwise the exposed registry with tool_search. */
export function withDeferredTools(tools: ToolRegistry, deferred: ReadonlySet<string>): ToolRegistry {
  if (deferred.size === 0) return tools;
  const exposed = new ExposedRegistry();
  for (const { name } of tools.definitions()) {
    const tool = tools.get(name);
    if (tool !== undefined) exposed.register(tool, deferred.has(name) ? "deferred" : "direct");
  }
  exposed.register(toolSearchTool(exposed), "direct");
  return exposed;
}

/** The names a system prompt lists: the declared ones at the start (deferred ones out, tool_search in). */
export function declaredAtStart(names: readonly string[], deferred: ReadonlySet<string>): string[] {
  if (deferred.size === 0) return [...names];
  return [...names.filter((name) => !deferred.has(name)), TOOL_SEARCH];
}
