// The names --tools accepts, parsed without loading the tools themselves: chapter 08's workspace
// tools, and `code` (chapter 16: scripts that call the other chosen tools in a sandbox).
import { UsageError } from "../host/errors.js";

export const TOOL_NAMES = ["read", "write", "edit", "bash", "code"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** `"read,bash"` → `["read", "bash"]`; an unknown, repeated or empty name is a UsageError. */
export function parseToolNames(list: string): ToolName[] {
  const names = list.split(",").map((name) => name.trim());
  const chosen: ToolName[] = [];
  for (const name of names) {
    if (!isToolName(name)) {
      const shown = name === "" ? "空名字" : `"${name}"`;
      throw new UsageError(
        `--tools 里有${shown}：请从 ${TOOL_NAMES.join(",")} 中选，用逗号分隔，例如 --tools read,bash。`,
      );
    }
    if (!chosen.includes(name)) chosen.push(name);
  }
  return chosen;
}

function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}
