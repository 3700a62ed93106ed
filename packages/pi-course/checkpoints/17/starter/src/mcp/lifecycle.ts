// Checkpoint 17 · 学习脚手架：MCP 的生命周期。版本表与类型已经写好。Lab 17.2 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="生命周期" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// The MCP handshake: `initialize` with the newest protocol version this client speaks and its name
// and version, then `notifications/initialized`. The server answers with the same version or another
// it supports; an older one this client also speaks is accepted, any other ends the connection.
import type { JsonRpcConnection } from "./connection.js";
import { McpConnectionError } from "./errors.js";

export const LATEST_PROTOCOL_VERSION = "2025-11-25";
export const SUPPORTED_PROTOCOL_VERSIONS = [LATEST_PROTOCOL_VERSION, "2025-06-18", "2025-03-26", "2024-11-05"];

export interface ClientInfo {
  name: string;
  version: string;
}

export interface ServerHello {
  protocolVersion: string;
  serverInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
  instructions?: string;
}

export async function initialize(
  connection: JsonRpcConnection,
  client: ClientInfo,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ServerHello> {
  // Lab 17.2 ①–④：握手。
  //   ① connection.request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: client }, options)。
  //   ② 答复的 protocolVersion 不是字符串、或不在 SUPPORTED_PROTOCOL_VERSIONS 里 → 先 await connection.close()，再抛
  //      McpConnectionError，一行里写出两边的版本：服务器的（JSON.stringify）与客户端的 LATEST_PROTOCOL_VERSION
  //      （以及它也支持的旧版本）。
  //   ③ connection.setProtocolVersion(version)，然后 await connection.notify("notifications/initialized")。
  //   ④ 返回 ServerHello：protocolVersion、serverInfo（name、version 不是字符串时是 "unknown"）、capabilities
  //      （不是对象时是 {}），有字符串的 instructions 时带上。
  throw new Error("Lab 17.2 生命周期 尚未实现");
}
