// A run's MCP servers from start to close: the configured servers behind the trust gate, started
// together, their tools registered beside the workspace tools, the names of those that go through
// the permission gate (every server's not marked readOnly) and of those deferred behind tool_search
// (every server's not marked direct), and close, which ends every server.
import type { ToolRegistry } from "@pi/core";
import type { ResourceRoot } from "../resources/types.js";
import { readMcpConfig } from "./mcp-config.js";
import type { ServerStartOptions, StartedServer } from "./mcp-servers.js";

export interface McpRun {
  servers: StartedServer[];
  /** Names of the MCP tools the permission gate asks about. */
  gated: ReadonlySet<string>;
  /** Names of the MCP tools deferred behind tool_search (every server's not marked direct). */
  deferred: ReadonlySet<string>;
  close(): Promise<void>;
}

export async function openMcpServers(
  roots: readonly ResourceRoot[],
  registry: ToolRegistry,
  options: ServerStartOptions,
): Promise<McpRun> {
  const config = readMcpConfig(roots);
  for (const line of config.problems) options.notes.write(`${line}\n`);
  if (config.servers.length === 0) return { servers: [], gated: new Set(), deferred: new Set(), close: async () => {} };
  // Loaded only when a server is configured: the MCP client is a tenth of tiny-pi's modules.
  const { courseMcpCode, mayStart, startServer } = await import("./mcp-servers.js");
  const allowed = [];
  for (const entry of config.servers) if (await mayStart(entry, options)) allowed.push(entry);
  const started = (await Promise.all(allowed.map((entry) => startServer(entry, options)))).filter(
    (server): server is StartedServer => server !== undefined,
  );
  const taken = new Set(registry.definitions().map((tool) => tool.name));
  const gated = new Set<string>();
  const deferred = new Set<string>();
  for (const server of started) {
    for (const tool of (options.code ?? courseMcpCode).mcpTools(
      server.entry.name,
      server.client,
      server.tools,
      taken,
    )) {
      registry.register(tool);
      if (!server.entry.readOnly) gated.add(tool.name);
      if (!server.entry.direct) deferred.add(tool.name);
    }
  }
  if (started.length > 0) {
    const counts = started.map((server) => `${server.entry.name}（${server.tools.length} 个工具）`).join("、");
    options.notes.write(`（已启动 MCP 服务器：${counts}）\n`);
  }
  return {
    servers: started,
    gated,
    deferred,
    close: async () => {
      await Promise.all(started.map((server) => server.client.close().catch(() => {})));
    },
  };
}
