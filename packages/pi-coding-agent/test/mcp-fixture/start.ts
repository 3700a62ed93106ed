// Starts the fixture server (mcp-fixture/server.ts, compiled beside this file) through the client,
// and waits for a process to be gone, for the MCP tests.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient, type McpClientOptions, type StdioServerOptions, StdioTransport } from "../../src/mcp/index.js";
import { isAlive } from "../../src/process/process-tree.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

export const FIXTURE_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "server.js");

export interface StartedFixture {
  client: McpClient;
  transport: StdioTransport;
  pid: number;
  errors: Error[];
}

/**
 * The fixture as a child process. It exits when its stdin closes; the wait for that is generous, so
 * that on a loaded machine close() reaches SIGTERM only in the tests that start a server ignoring it.
 */
export function fixtureTransport(args: string[] = [], options: Partial<StdioServerOptions> = {}): StdioTransport {
  return new StdioTransport({
    command: process.execPath,
    args: [FIXTURE_SERVER, ...args],
    stdinGraceMs: HANG_GUARD_MS,
    ...options,
  });
}

export async function startFixture(
  args: string[] = [],
  options: McpClientOptions = {},
  transportOptions: Partial<StdioServerOptions> = {},
): Promise<StartedFixture> {
  const transport = fixtureTransport(args, transportOptions);
  const errors: Error[] = [];
  const client = await McpClient.connect(transport, {
    // Generous: a loaded machine can take seconds to start node; speed is the bench's business.
    startupTimeoutMs: 60_000,
    timeoutMs: 60_000,
    onError: (error) => errors.push(error),
    lastLogLine: () => transport.lastLogLine,
    ...options,
  });
  return { client, transport, pid: transport.pid ?? 0, errors };
}

/** Resolves once process `pid` is gone; rejects (naming it) only after the hang guard. */
export async function gone(pid: number): Promise<void> {
  const until = Date.now() + HANG_GUARD_MS;
  while (isAlive(pid)) {
    if (Date.now() > until) throw new Error(`process ${pid} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
