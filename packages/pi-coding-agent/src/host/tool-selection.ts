// Which workspace tools a run gets: `--tools read,write,edit,bash`, read-only `read` by default.
// The tools come from chapter 08's createWorkspaceTools, the course's or a learner's (--tools-from).
import { type Tool, ToolRegistry } from "@pi/core";
import { CODE_TOOL_NAME, createCodeTool } from "../codemode/index.js";
import { RunError } from "./errors.js";

/** `createWorkspaceTools(root)`: the four tools of chapter 08, working inside `root`. */
export type ToolFactory = (root: string) => Tool[];

/**
 * A registry holding the chosen tools of `createTools(workspace)`, in the order they were named.
 * `source` names where the tools came from, for the one line a missing tool gives.
 */
export function selectTools(
  createTools: ToolFactory,
  workspace: string,
  names: readonly string[],
  source: string,
): ToolRegistry {
  const tools = createTools(workspace);
  const registry = new ToolRegistry();
  for (const name of names) {
    if (name === CODE_TOOL_NAME) continue; // not a workspace tool: addCodeTool below adds it
    const tool = Array.isArray(tools) ? tools.find((candidate) => candidate?.name === name) : undefined;
    if (tool === undefined) {
      throw new RunError(
        `${source} 的 createWorkspaceTools() 没有返回名为 ${name} 的工具：请检查它返回 [read, write, edit, bash]。`,
      );
    }
    registry.register(tool);
  }
  return registry;
}

/**
 * `--tools …,code`: the code tool, added to `registry` when it was named. Its scripts reach the
 * tools of `hooked()` (the registry after the permission gate and the extensions' hooks wrapped it),
 * so a nested write, edit or bash meets the same gate as a direct one. Before the registry is wired,
 * its description names the tools of `registry` itself (same names and schemas). `create` is the
 * course's createCodeTool or a learner's (--from practice/16).
 */
export function addCodeTool(
  registry: ToolRegistry,
  names: readonly string[],
  hooked: () => ToolRegistry | undefined,
  create: typeof createCodeTool = createCodeTool,
): void {
  if (!names.includes(CODE_TOOL_NAME)) return;
  const toolsOf = (source: ToolRegistry) =>
    reachableOf(source) ?? source.definitions().flatMap(({ name }) => source.get(name) ?? []);
  registry.register(create({ callable: () => toolsOf(hooked() ?? registry) }));
}

/**
 * Chapter 15's ExposedRegistry (asked by shape: a practice tree's counts too) answers reachable():
 * its direct and deferred tools, so a script reaches deferred tools the model was not told about.
 * Its definitions() is not asked: that records what the model was told and would move its scope.
 */
function reachableOf(source: ToolRegistry): Tool[] | undefined {
  const reachable = (source as unknown as { reachable?: unknown }).reachable;
  return typeof reachable === "function" ? (reachable.call(source) as Tool[]) : undefined;
}
