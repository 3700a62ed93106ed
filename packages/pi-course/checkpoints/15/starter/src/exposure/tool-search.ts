// Checkpoint 15 · 学习脚手架：工具搜索。分词 terms()、被搜索的文字 searchText() 与 tool_search 的 schema 已经
// 写好。Lab 15.4 的两处先抛出“尚未实现”的临时错误。按 ① → ② 完成 `// Lab 15.4` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工具搜索" packages/pi-coding-agent/dist/test/15-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { type Tool, type ToolDefinition, text } from "@pi/core";
import type { ExposedRegistry } from "./registry.js";

export const TOOL_SEARCH = "tool_search";
/** At most this many tools are activated by one search. */
export const SEARCH_LIMIT = 5;
const K1 = 1.2;
const B = 0.75;

/** Lower-case words: runs of letters and digits, split at snake_case, kebab-case and camelCase boundaries. */
export function terms(source: string): string[] {
  const split = source.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  return (split.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 0);
}

/** What a tool is searched by: its name, its description and the names of its parameters. */
export function searchText(tool: ToolDefinition): string {
  const properties = (tool.parameters as { properties?: unknown }).properties;
  const names = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  return [tool.name, tool.description, ...names].join(" ");
}

/**
 * The tools that match `query`, best first, at most `limit`: BM25 with idf ln(1 + (N − df + 0.5) /
 * (df + 0.5)); a tool scoring 0 (no query term) is no match; equal scores keep the given order.
 */
export function rankTools(query: string, tools: readonly ToolDefinition[], limit = SEARCH_LIMIT): ToolDefinition[] {
  // Lab 15.4 ①：查询的词去重（new Set(terms(query))）；没有词或没有工具 → []。每个工具的文档是
  // terms(searchText(tool))，avgdl 是文档的平均词数。每个查询词的 idf = ln(1 + (N − df + 0.5) / (df + 0.5))，df 是
  // 含这个词的文档数。文档的分数是它含有的每个查询词的 idf · tf · (K1 + 1) / (tf + K1 · (1 − B + B · dl / avgdl)) 之和。
  // 只留分数 > 0 的，分数高的在前，相同分数按原来的顺序（比较下标），取前 limit 个，返回定义的副本。
  throw new Error("Lab 15.4 工具搜索 尚未实现");
}

/** The tool_search tool over `registry`'s deferred tools: register it as direct. */
export function toolSearchTool(registry: ExposedRegistry, limit = SEARCH_LIMIT): Tool {
  return {
    name: TOOL_SEARCH,
    description:
      "Search the tools that are not declared yet by what they do. The best matches are declared from your next request on; call them then.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "Words describing the tool you need." } },
      required: ["query"],
      additionalProperties: false,
    },
    async execute(args) {
      // Lab 15.4 ②：query = String(args.query)；rankTools(query, registry.deferred(), limit) 的名字交给
      // registry.activate()，它返回真正新激活的（按注册顺序）。一个也没有：文字 `No deferred tool matches "<query>".`；
      // 否则列出它们（`- name: description`），说从下一步起可以调用。两种情况 details 都是 { loaded }。
      throw new Error("Lab 15.4 工具搜索 尚未实现");
    },
  };
}
