// Tiny-pi's name for a server's tool: `mcp__<server>__<tool>`, at most 64 characters (what model
// APIs accept), only letters, digits, `_` and `-`. When the name is too long or already taken, it is
// cut and ends in `_` plus 8 hex characters of the SHA-256 of server and tool, so it stays stable.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME_LENGTH = 64;

export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const plain = `mcp__${clean(server)}__${clean(tool)}`;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && !taken.has(plain)) return plain;
  const hash = createHash("sha256").update(`${server}\u0000${tool}`).digest("hex");
  for (let start = 0; start + 8 <= hash.length; start++) {
    const suffix = `_${hash.slice(start, start + 8)}`;
    const name = `${plain.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
  throw new Error(`no free tool name for MCP tool ${tool} of server ${server}`);
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}
