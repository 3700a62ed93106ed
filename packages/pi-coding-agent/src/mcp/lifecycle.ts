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
  const result = (await connection.request(
    "initialize",
    { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: client },
    options,
  )) as Partial<ServerHello> | null;
  const version = result?.protocolVersion;
  if (typeof version !== "string" || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    await connection.close();
    throw new McpConnectionError(
      `MCP server answered protocol version ${JSON.stringify(version)}; this client speaks ${LATEST_PROTOCOL_VERSION} (and ${SUPPORTED_PROTOCOL_VERSIONS.slice(1).join(", ")})`,
    );
  }
  connection.setProtocolVersion(version);
  await connection.notify("notifications/initialized");
  const info = result?.serverInfo;
  return {
    protocolVersion: version,
    serverInfo: {
      name: typeof info?.name === "string" ? info.name : "unknown",
      version: typeof info?.version === "string" ? info.version : "unknown",
    },
    capabilities: result?.capabilities !== null && typeof result?.capabilities === "object" ? result.capabilities : {},
    ...(typeof result?.instructions === "string" ? { instructions: result.instructions } : {}),
  };
}
