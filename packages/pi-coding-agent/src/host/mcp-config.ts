// The MCP servers a run may start, in the format Claude Desktop, Cursor and VS Code share:
// `{"mcpServers": {"name": {"command", "args", "env"}}}` for stdio and `{"url", "headers"}` for
// Streamable HTTP, in ~/.tiny-pi/mcp.json and .tiny-pi/mcp.json of the workspace (and of each folder
// up to the repository's root), with chapter 12's precedence: a nearer root's entry of the same name
// replaces a farther one's. Tiny-pi's own fields: `readOnly` (calls skip the permission gate) and
// `direct` (not deferred behind tool_search). Each problem is one line; the other servers still load.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ResourceRoot } from "../resources/types.js";
import { sha256Of } from "./trust-record.js";

export interface McpServerEntry {
  name: string;
  /** stdio */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Streamable HTTP */
  url?: string;
  headers?: Record<string, string>;
  readOnly: boolean;
  direct: boolean;
  /** Where it was configured: the real path of its mcp.json, and whether that is the user's own (global). */
  file: string;
  global: boolean;
  /** SHA-256 of the entry's JSON as written: what trust is remembered by, beside the file's real path. */
  sha256: string;
}

export interface McpConfig {
  servers: McpServerEntry[];
  problems: string[];
}

export const MCP_CONFIG_FILE = "mcp.json";

/** The mcp.json of each root, lowest precedence first: ~/.tiny-pi/mcp.json, then `<root>/.tiny-pi/mcp.json`. */
export function mcpConfigFiles(roots: readonly ResourceRoot[]): { file: string; global: boolean }[] {
  return roots.map((root) =>
    root.kind === "global"
      ? { file: path.join(root.dir, MCP_CONFIG_FILE), global: true }
      : { file: path.join(root.dir, ".tiny-pi", MCP_CONFIG_FILE), global: false },
  );
}

export function readMcpConfig(roots: readonly ResourceRoot[]): McpConfig {
  const byName = new Map<string, McpServerEntry>();
  const problems: string[] = [];
  for (const { file, global } of mcpConfigFiles(roots)) {
    let text: string;
    let real: string;
    try {
      real = realpathSync(file);
      text = readFileSync(real, "utf8");
    } catch {
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      problems.push(`（跳过 ${file}：不是合法的 JSON，${(error as Error).message}）`);
      continue;
    }
    const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
    if (servers === null || typeof servers !== "object" || Array.isArray(servers)) {
      problems.push(`（跳过 ${file}：缺少 "mcpServers" 对象，格式是 {"mcpServers": {"名字": {"command": …}}}）`);
      continue;
    }
    for (const [name, raw] of Object.entries(servers as Record<string, unknown>)) {
      const entry = parseEntry(name, raw, real, global);
      if (typeof entry === "string") problems.push(`（跳过 MCP 服务器 ${name}（${file}）：${entry}）`);
      else byName.set(name, entry);
    }
  }
  return { servers: [...byName.values()], problems };
}

function parseEntry(name: string, raw: unknown, file: string, global: boolean): McpServerEntry | string {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) return "名字只能用字母、数字、_ 和 -，最长 40 个字符";
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return "应是一个对象";
  const entry = raw as Record<string, unknown>;
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
  const stringMap = (value: unknown) =>
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.values(value as object).every((item) => typeof item === "string");
  const hasCommand = typeof entry.command === "string" && entry.command !== "";
  const hasUrl = typeof entry.url === "string" && entry.url !== "";
  if (hasCommand === hasUrl) return '需要 "command"（stdio）或 "url"（HTTP）二者之一';
  if (entry.args !== undefined && !strings(entry.args)) return '"args" 应是字符串数组';
  if (entry.env !== undefined && !stringMap(entry.env)) return '"env" 应是 {"名字": "值"} 的对象';
  if (entry.headers !== undefined && !stringMap(entry.headers)) return '"headers" 应是 {"名字": "值"} 的对象';
  if (hasUrl && !/^https?:\/\//.test(entry.url as string)) return '"url" 应以 http:// 或 https:// 开头';
  return {
    name,
    ...(hasCommand ? { command: entry.command as string, args: (entry.args as string[] | undefined) ?? [] } : {}),
    ...(entry.env !== undefined ? { env: entry.env as Record<string, string> } : {}),
    ...(hasUrl ? { url: entry.url as string } : {}),
    ...(entry.headers !== undefined ? { headers: entry.headers as Record<string, string> } : {}),
    readOnly: entry.readOnly === true,
    direct: entry.direct === true,
    file,
    global,
    sha256: sha256Of(JSON.stringify(raw)),
  };
}
