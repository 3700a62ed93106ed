// `tiny-pi mcp`: the configured MCP servers, where each comes from, its trust, and its state: a
// trusted server is started, initialised and asked for its tools (their count), then closed; no tool
// is called and no untrusted server is started.
import { mcpConfigFiles, readMcpConfig } from "../host/mcp-config.js";
import { serverTrust, startServer } from "../host/mcp-servers.js";
import { courseResourceCode } from "../host/resource-code.js";
import { loadRunResources } from "../host/run-resources.js";
import type { Invocation } from "./invocation.js";
import { guardChildren } from "./leave.js";

const TRUST_WORDS = { user: "你自己的配置", trusted: "已信任", untrusted: "未信任" } as const;

export async function mcpCommandText(
  command: Extract<Invocation, { kind: "mcp" }>,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  guardChildren();
  const { workspace, home } = command;
  const { roots } = loadRunResources(courseResourceCode, { workspace, home, contextFiles: false });
  const config = readMcpConfig(roots);
  const lines = [...config.problems];
  if (config.servers.length === 0) {
    const files = mcpConfigFiles(roots).map((entry) => entry.file);
    lines.push(`没有配置 MCP 服务器（读过：${files.join("、")}）`);
    return lines.join("\n");
  }
  const rows = await Promise.all(
    config.servers.map(async (entry) => {
      const trust = serverTrust(entry, home);
      const what = entry.command !== undefined ? [entry.command, ...(entry.args ?? [])].join(" ") : entry.url;
      // --trust-mcp lets this run start an untrusted server without remembering it as trusted.
      const trustWord =
        trust === "untrusted" && command.trustMcp ? "未记住信任，这次由 --trust-mcp 放行" : TRUST_WORDS[trust];
      const head = `${entry.name}  ${what}  （${entry.file}；${trustWord}${entry.readOnly ? "；只读" : ""}）`;
      if (trust === "untrusted" && !command.trustMcp)
        return `${head}\n  未启动：未信任（在终端里运行 tiny-pi 时回答 y，或加 --trust-mcp）`;
      const failures: string[] = [];
      const started = await startServer(entry, {
        home,
        workspace,
        trustAll: true,
        notes: { write: (text: string) => failures.push(text.trim()) },
        env,
      });
      if (started === undefined) return `${head}\n  启动失败：${failures.join(" ")}`;
      await started.client.close();
      const { name, version } = started.client.server.serverInfo;
      return `${head}\n  可用：${name} ${version}，协议 ${started.client.server.protocolVersion}，${started.tools.length} 个工具`;
    }),
  );
  return [...lines, ...rows].join("\n");
}
