// A server's tools as tiny-pi tools: named `mcp__<server>__<tool>`, described as the server describes
// them, executed by `tools/call` with the run's abort signal. A tool's own failure (isError) and a
// JSON-RPC error are thrown, so the executor pairs a failed result with the call.
import type { Tool } from "@pi/core";
import type { McpClient } from "./client.js";
import type { McpToolInfo } from "./list-tools.js";
import { mcpToolName } from "./tool-names.js";

export function mcpTools(server: string, client: McpClient, tools: readonly McpToolInfo[], taken: Set<string>): Tool[] {
  return tools.map((tool) => {
    const name = mcpToolName(server, tool.name, taken);
    taken.add(name);
    return {
      name,
      description: `${tool.description === "" ? tool.name : tool.description}（MCP 服务器 ${server} 的工具 ${tool.name}）`,
      parameters: tool.inputSchema,
      async execute(args, context) {
        const text = await client.callToolOrThrow(tool.name, args, context.signal ? { signal: context.signal } : {});
        return { content: [{ type: "text", text }] };
      },
    };
  });
}
