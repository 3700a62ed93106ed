// Checkpoint 17 · 学习脚手架：tools/call。McpCallResult、McpToolFailure 与 callToolOrThrow() 已经写好。Lab 17.3 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工具" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 17.3 ②：tools/call。
  //   params：args 是 undefined 或空对象时只有 { name }（不带 arguments），否则 { name, arguments: args }。
  //   答复不是对象 → 抛 McpConnectionError。返回 { text: contentText(result.content), isError: result.isError === true }，
  //   答复里有 structuredContent 时带上。JSON-RPC 错误不用管：connection.request 已经把它变成 McpRemoteError。
  throw new Error("Lab 17.3 工具 尚未实现");
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
  // Lab 17.3 ③：content 不是数组 → ""。每一块一行，用 "\n" 连起来：
  //   { type: "text", text: 字符串 } → text 原样；
  //   不是对象 → "[content block of no type]"；
  //   别的类型写出名字，不悄悄丢掉：`[${type} content: ${细节}; not shown as text]`，细节是 mimeType、uri、
  //   resource.uri 里是字符串的那些（空格连接）；一个也没有时是 `[${type} content; not shown as text]`。
  throw new Error("Lab 17.3 工具 尚未实现");
}
