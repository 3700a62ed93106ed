// Lab 15.4 · tool_search: a model-only tool that ranks the deferred tools against a query with
// BM25 (k1 1.2, b 0.75) over each tool's name, description and parameter names, and activates the
// best few. The activated tools are declared from the very next request on.
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
  const wanted = [...new Set(terms(query))];
  if (wanted.length === 0 || tools.length === 0) return [];
  const documents = tools.map((tool) => terms(searchText(tool)));
  const averageLength = documents.reduce((sum, words) => sum + words.length, 0) / documents.length;
  const frequencies = documents.map((words) => {
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  const idf = new Map<string, number>();
  for (const term of wanted) {
    const df = frequencies.filter((counts) => counts.has(term)).length;
    idf.set(term, Math.log(1 + (tools.length - df + 0.5) / (df + 0.5)));
  }
  const scored = frequencies.map((counts, index) => {
    const length = documents[index]?.length ?? 0;
    let score = 0;
    for (const term of wanted) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      score += ((idf.get(term) ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / averageLength));
    }
    return { index, score };
  });
  return scored
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map(({ index }) => structuredClone(tools[index] as ToolDefinition));
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
      const query = String(args.query);
      const found = rankTools(query, registry.deferred(), limit);
      const loaded = registry.activate(found.map((tool) => tool.name));
      if (loaded.length === 0) return { content: [text(`No deferred tool matches "${query}".`)], details: { loaded } };
      const lines = found
        .filter((tool) => loaded.includes(tool.name))
        .map((tool) => `- ${tool.name}: ${tool.description}`);
      return {
        content: [text(`Loaded ${loaded.length} tool(s); call them from your next step on:\n${lines.join("\n")}`)],
        details: { loaded },
      };
    },
  };
}
