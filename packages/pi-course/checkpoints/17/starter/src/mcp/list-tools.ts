// Checkpoint 17 · 学习脚手架：tools/list。McpToolInfo 与页数上限已经写好。Lab 17.3 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工具" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 17.3 ①：一页页取 tools/list。
  //   第一页的 params 是 {}，以后是 { cursor }；每次请求把 options 传下去。
  //   页数超过 options.maxPages ?? DEFAULT_MAX_PAGES → 抛 McpConnectionError，消息含 `more than ${maxPages} pages`。
  //   答复没有 tools 数组 → 抛 McpConnectionError。每个有字符串 name 的工具留下 { name, description（不是字符串时
  //   是 ""）, inputSchema（不是对象时是 { type: "object" }）}，别的跳过。
  //   nextCursor 不是字符串或是 "" → 返回全部工具；见过的 cursor 又出现 → 抛 McpConnectionError，消息含
  //   "repeated cursor"（否则会无限地取下去）；否则记下它，取下一页。
  throw new Error("Lab 17.3 工具 尚未实现");
}
