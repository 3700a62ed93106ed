// Starting a run's MCP servers. A server is code that runs with the user's rights, so a server the
// workspace configured (not the user's own ~/.tiny-pi/mcp.json) passes the extensions' trust gate:
// trusted before (same mcp.json by real path, same entry by content hash), --trust-mcp, or the
// person's answer on a terminal; without a terminal it is not started, in one line. A server that
// fails to start or initialise is one line naming it and the last line of its log; the run goes on.
import {
  McpClient,
  type McpToolInfo,
  mcpTools,
  StdioTransport,
  StreamableHttpTransport,
  type Transport,
} from "../mcp/index.js";
import type { McpServerEntry } from "./mcp-config.js";
import { serverEnvironment } from "./mcp-environment.js";
import type { Questions } from "./questions.js";
import { fingerprintRecord } from "./trust-record.js";

export const MCP_TRUST_FILE = "trusted-mcp-servers.json";
/** How long a server may take to start and answer initialize (npx may install first on a cold cache). */
export const MCP_STARTUP_TIMEOUT_MS = 30_000;

export type ServerTrust = "user" | "trusted" | "untrusted";

/** Chapter 17's exports tiny-pi runs MCP servers with: this package's, or a practice tree's (--from). */
export interface McpCode {
  McpClient: typeof McpClient;
  StdioTransport: typeof StdioTransport;
  mcpTools: typeof mcpTools;
}

export const courseMcpCode: McpCode = { McpClient, StdioTransport, mcpTools };

export interface StartedServer {
  entry: McpServerEntry;
  client: McpClient;
  tools: McpToolInfo[];
}

export interface ServerStartOptions {
  home: string;
  workspace: string;
  /** --trust-mcp. */
  trustAll: boolean;
  questions?: Questions;
  notes: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** The client that talks to the servers (Streamable HTTP is always the course's transport). */
  code?: McpCode;
}

/** The trust a server has without asking anyone. */
export function serverTrust(entry: McpServerEntry, home: string): ServerTrust {
  if (entry.global) return "user";
  return fingerprintRecord(home, MCP_TRUST_FILE).matches(fingerprintOf(entry)) ? "trusted" : "untrusted";
}

function fingerprintOf(entry: McpServerEntry) {
  return { key: `${entry.file}#${entry.name}`, sha256: entry.sha256 };
}

/** Whether the server may start: its recorded trust, --trust-mcp, or the answer on a terminal. */
export async function mayStart(entry: McpServerEntry, options: ServerStartOptions): Promise<boolean> {
  if (options.trustAll || serverTrust(entry, options.home) !== "untrusted") return true;
  if (options.questions === undefined) {
    options.notes.write(
      `（没有启动 MCP 服务器 ${entry.name}：它来自工作区的 ${entry.file}，不在终端里时加 --trust-mcp 才启动）\n`,
    );
    return false;
  }
  const what = entry.command !== undefined ? [entry.command, ...(entry.args ?? [])].join(" ") : entry.url;
  const answer = await options.questions.ask(
    `启动 MCP 服务器 ${entry.name}（${what}）吗？它来自 ${entry.file}，会以你的权限运行（记下这一项的内容，改动后会再问）。(y / n)`,
  );
  const yes = /^y(es)?$/i.test(answer);
  if (yes) fingerprintRecord(options.home, MCP_TRUST_FILE).remember(fingerprintOf(entry));
  else options.notes.write(`（没有启动 MCP 服务器 ${entry.name}：你没有信任它）\n`);
  return yes;
}

/** Starts one server and lists its tools; undefined (after one line) when it fails. */
export async function startServer(
  entry: McpServerEntry,
  options: ServerStartOptions,
): Promise<StartedServer | undefined> {
  const code = options.code ?? courseMcpCode;
  const stdio =
    entry.command !== undefined
      ? new code.StdioTransport({
          command: entry.command,
          args: entry.args ?? [],
          env: serverEnvironment(entry.env, options.env),
          cwd: options.workspace,
        })
      : undefined;
  const transport: Transport =
    stdio ??
    new StreamableHttpTransport({ url: entry.url ?? "", ...(entry.headers ? { headers: entry.headers } : {}) });
  let client: McpClient | undefined;
  try {
    client = await code.McpClient.connect(transport, {
      startupTimeoutMs: MCP_STARTUP_TIMEOUT_MS,
      ...(stdio !== undefined ? { lastLogLine: () => stdio.lastLogLine } : {}),
    });
    const tools = await client.listTools({ timeoutMs: MCP_STARTUP_TIMEOUT_MS });
    return { entry, client, tools };
  } catch (error) {
    await (client?.close() ?? transport.close()).catch(() => {});
    options.notes.write(`（MCP 服务器 ${entry.name} 没有启动：${(error as Error).message.split("\n")[0]}）\n`);
    return undefined;
  }
}
