// tiny-pi's tool exposure (chapter 15): after chapter 12's extensions registered their tools, the
// tools tiny-pi hands the Runtime are chapter 15's ExposedRegistry. The workspace tools (--tools)
// and activate_skill stay direct; extension tools are deferred when --defer-tools names them, or
// all of them when there are more than DEFER_THRESHOLD and --defer-tools says nothing; tool_search
// joins whenever one is deferred. Chapter 15's code is the course's or a learner's (--from).
import type { ToolRegistry } from "@pi/core";
import { ExposedRegistry, TOOL_SEARCH, toolSearchTool } from "../exposure/index.js";

/** More extension tools than this are deferred unless --defer-tools says otherwise. */
export const DEFER_THRESHOLD = 10;

/** --defer-tools: every extension tool, none, or these names; absent: by the threshold. */
export type DeferChoice = "all" | "none" | readonly string[];

/** Chapter 15's exports tiny-pi runs on: this package's, or a practice tree's. */
export interface ExposureCode {
  ExposedRegistry: typeof ExposedRegistry;
  toolSearchTool: typeof toolSearchTool;
}

export const courseExposureCode: ExposureCode = { ExposedRegistry, toolSearchTool };

export interface ExposedTools {
  tools: ToolRegistry;
  declared: number;
  deferred: number;
  /** Of the deferred tools, those of MCP servers (deferred whatever --defer-tools says). */
  deferredMcp: number;
  /** Names --defer-tools gave that no extension registered. */
  unknown: string[];
}

/**
 * `tools` (every tool, hooks applied) with the extension tools — those not in `own` — exposed as `choice` says,
 * and the tools in `alsoDeferred` (MCP servers' tools not marked direct) deferred whatever `choice` says.
 */
export function exposeTools(
  tools: ToolRegistry,
  own: ReadonlySet<string>,
  choice: DeferChoice | undefined,
  code: ExposureCode = courseExposureCode,
  alsoDeferred: ReadonlySet<string> = new Set(),
): ExposedTools {
  const names = tools.definitions().map((tool) => tool.name);
  const extension = names.filter((name) => !own.has(name));
  const wanted =
    choice === undefined
      ? new Set(extension.length > DEFER_THRESHOLD ? extension : [])
      : choice === "all"
        ? new Set(extension)
        : choice === "none"
          ? new Set<string>()
          : new Set(choice);
  const unknown = [...wanted].filter((name) => !extension.includes(name));
  const deferred = new Set(names.filter((name) => (wanted.has(name) && !own.has(name)) || alsoDeferred.has(name)));
  if (deferred.size === 0) return { tools, declared: names.length, deferred: 0, deferredMcp: 0, unknown };
  const deferredMcp = [...deferred].filter((name) => alsoDeferred.has(name)).length;
  const exposed = new code.ExposedRegistry();
  for (const name of names) {
    const tool = tools.get(name);
    if (tool !== undefined) exposed.register(tool, deferred.has(name) ? "deferred" : "direct");
  }
  exposed.register(code.toolSearchTool(exposed));
  return { tools: exposed, declared: exposed.definitions().length, deferred: deferred.size, deferredMcp, unknown };
}

/** The start line's count: how many tools the first request declares and how many wait for tool_search. */
export function exposureLine(exposed: ExposedTools): string | undefined {
  if (exposed.deferred === 0) return undefined;
  // Each way back to declaring them names only the tools it governs: --defer-tools never covers MCP tools.
  const ways = [
    ...(exposed.deferred > exposed.deferredMcp ? ["扩展工具用 --defer-tools none 直接声明"] : []),
    ...(exposed.deferredMcp > 0 ? ['MCP 服务器的工具在 mcp.json 里写 "direct": true 直接声明'] : []),
  ];
  return `工具：声明 ${exposed.declared} 个，延迟 ${exposed.deferred} 个（模型用 tool_search 按需找到；${ways.join("，")}）`;
}

/**
 * The names a system prompt lists: the declared ones at the start (the `deferred` ones out, tool_search in).
 * tiny-pi passes the MCP servers' deferred tools; deferred extension tools are still named (their schemas are not sent).
 */
export function declaredAtStart(names: readonly string[], deferred: ReadonlySet<string>): string[] {
  if (deferred.size === 0) return [...names];
  return [...names.filter((name) => !deferred.has(name)), TOOL_SEARCH];
}
