// `tools/list`, page after page: each answer's `nextCursor` asks for the next page until it is
// absent or empty. A cursor seen before would loop forever and too many pages is a server out of
// control: both are refused with one line.
import type { JsonRpcConnection, RequestOptions } from "./connection.js";
import { McpConnectionError } from "./errors.js";

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: object;
}

export const DEFAULT_MAX_PAGES = 1_000;

export async function listTools(
  connection: JsonRpcConnection,
  options: RequestOptions & { maxPages?: number } = {},
): Promise<McpToolInfo[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const tools: McpToolInfo[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      throw new McpConnectionError(`MCP tools/list: the server sent more than ${maxPages} pages; refused`);
    }
    const result = (await connection.request("tools/list", cursor === undefined ? {} : { cursor }, options)) as {
      tools?: unknown;
      nextCursor?: unknown;
    } | null;
    if (!Array.isArray(result?.tools)) throw new McpConnectionError("MCP tools/list: the answer has no tools array");
    for (const tool of result.tools as Record<string, unknown>[]) {
      if (tool === null || typeof tool !== "object" || typeof tool.name !== "string") continue;
      tools.push({
        name: tool.name,
        description: typeof tool.description === "string" ? tool.description : "",
        inputSchema:
          tool.inputSchema !== null && typeof tool.inputSchema === "object"
            ? (tool.inputSchema as object)
            : { type: "object" },
      });
    }
    const next = result.nextCursor;
    if (typeof next !== "string" || next === "") return tools;
    if (seen.has(next)) {
      throw new McpConnectionError(`MCP tools/list: the server repeated cursor ${JSON.stringify(next)}; refused`);
    }
    seen.add(next);
    cursor = next;
  }
}
