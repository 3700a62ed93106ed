// `tools/call`: `arguments` only when there are some; the answer's content blocks become text (a
// block that is not text is named, never dropped silently); `isError: true` is the tool's own failure,
// thrown so the executor pairs a failed result with the call; a JSON-RPC error arrives as
// McpRemoteError carrying its code.
import type { JsonRpcConnection, RequestOptions } from "./connection.js";
import { McpConnectionError } from "./errors.js";

export interface McpCallResult {
  text: string;
  isError: boolean;
  structuredContent?: unknown;
}

/** The failure a tool reported with `isError: true`. */
export class McpToolFailure extends Error {
  constructor(readonly text: string) {
    super(text);
    this.name = "McpToolFailure";
  }
}

export async function callTool(
  connection: JsonRpcConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  options: RequestOptions = {},
): Promise<McpCallResult> {
  const params = args === undefined || Object.keys(args).length === 0 ? { name } : { name, arguments: args };
  const result = (await connection.request("tools/call", params, options)) as Record<string, unknown> | null;
  if (result === null || typeof result !== "object")
    throw new McpConnectionError("MCP tools/call: the answer is not an object");
  return {
    text: contentText(result.content),
    isError: result.isError === true,
    ...("structuredContent" in result ? { structuredContent: result.structuredContent } : {}),
  };
}

/** The call's result, throwing the tool's own failure (isError) so it is paired as a failed result. */
export async function callToolOrThrow(
  connection: JsonRpcConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  options: RequestOptions = {},
): Promise<string> {
  const result = await callTool(connection, name, args, options);
  if (result.isError) throw new McpToolFailure(result.text === "" ? `MCP tool ${name} failed` : result.text);
  return result.text;
}

/** Text blocks as they are; any other block named by its type (and its MIME type or URI when it has one). */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((block: Record<string, unknown> | null) => {
      if (block === null || typeof block !== "object") return "[content block of no type]";
      if (block.type === "text" && typeof block.text === "string") return block.text;
      const resource = block.resource as Record<string, unknown> | undefined;
      const detail = [block.mimeType, block.uri, resource?.uri].filter((part) => typeof part === "string").join(" ");
      return `[${String(block.type)} content${detail === "" ? "" : `: ${detail}`}; not shown as text]`;
    })
    .join("\n");
}
