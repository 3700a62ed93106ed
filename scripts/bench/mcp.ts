// `npm run bench -- --only mcp`: tiny-pi's MCP client over stdio. Start + initialize + tools/list of
// the reference server-memory (node's start included) and of the tests' fixture server with 1,000
// tools in 10 pages; the median tools/call round trip; close-to-gone (close called → the server's pid
// no longer exists).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../lib/course/manifest.js";
import type { Goal } from "./goals.js";
import { type Summary, summarize } from "./stats.js";
import { fixed, goalText, type Table } from "./table.js";

export const START_LIMIT_MS = 1_500;
export const LIST_1000_LIMIT_MS = 1_000;
export const CALL_MEDIAN_LIMIT_MS = 2;
export const CLOSE_LIMIT_MS = 500;
const CALLS = 2_000;

const memoryServer = path.join(repoRoot, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
const fixtureServer = path.join(repoRoot, "packages/pi-coding-agent/dist/test/mcp-fixture/server.js");
// The compiled client (packages/pi-coding-agent/dist/src/mcp), the part of it the bench uses.
interface McpClient {
  listTools(): Promise<unknown[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}
interface McpModule {
  StdioTransport: new (options: { command: string; args: string[] }) => { readonly pid: number | undefined };
  McpClient: {
    connect(transport: unknown, options: { startupTimeoutMs: number; timeoutMs: number }): Promise<McpClient>;
  };
}
const mcpModule = pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/mcp/index.js")).href;

/** 14 named tools + 986 generated = 1,000, 100 a page. */
const THOUSAND_TOOLS = ["--tools", "986", "--page-size", "100"];

export interface McpReport {
  memoryStart: Summary;
  memoryTools: number;
  fixtureStart: Summary;
  fixtureTools: number;
  call: Summary;
  close: Summary;
}

async function startAndList(args: string[]): Promise<{ ms: number; tools: number; client: McpClient; pid: number }> {
  const { McpClient, StdioTransport } = (await import(mcpModule)) as McpModule;
  const started = performance.now();
  const transport = new StdioTransport({ command: process.execPath, args });
  const client = await McpClient.connect(transport, { startupTimeoutMs: 60_000, timeoutMs: 60_000 });
  const tools = (await client.listTools()).length;
  return { ms: performance.now() - started, tools, client, pid: transport.pid ?? 0 };
}

async function closeToGone(client: McpClient, pid: number): Promise<number> {
  const started = performance.now();
  await client.close();
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 1));
  return performance.now() - started;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function measureMcp(runs: number): Promise<McpReport> {
  const memory: number[] = [];
  const fixture: number[] = [];
  const closes: number[] = [];
  let memoryTools = 0;
  let fixtureTools = 0;
  for (let run = 0; run < runs; run++) {
    const m = await startAndList([memoryServer]);
    memory.push(m.ms);
    memoryTools = m.tools;
    closes.push(await closeToGone(m.client, m.pid));
    const f = await startAndList([fixtureServer, ...THOUSAND_TOOLS]);
    fixture.push(f.ms);
    fixtureTools = f.tools;
    closes.push(await closeToGone(f.client, f.pid));
  }
  const { client, pid } = await startAndList([fixtureServer]);
  const calls: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    const started = performance.now();
    await client.callTool("echo", { text: "ping" });
    calls.push(performance.now() - started);
  }
  await closeToGone(client, pid);
  return {
    memoryStart: summarize(memory),
    memoryTools,
    fixtureStart: summarize(fixture),
    fixtureTools,
    call: summarize(calls.slice(100)),
    close: summarize(closes),
  };
}

export function mcpGoals(report: McpReport): Goal[] {
  const goal = (name: string, value: number, limit: number): Goal => ({
    name,
    value,
    limit,
    unit: "ms",
    met: value <= limit,
  });
  return [
    goal("mcp: server-memory start + initialize + tools/list, median", report.memoryStart.median, START_LIMIT_MS),
    goal("mcp: fixture 1,000 tools in 10 pages, start + list, median", report.fixtureStart.median, LIST_1000_LIMIT_MS),
    goal("mcp: tools/call round trip, median", report.call.median, CALL_MEDIAN_LIMIT_MS),
    goal("mcp: close → process gone, median", report.close.median, CLOSE_LIMIT_MS),
  ];
}

export function mcpTable(report: McpReport): Table {
  const row = (name: string, summary: Summary) => [
    name,
    fixed(summary.median, 2),
    fixed(summary.p25, 2),
    fixed(summary.p75, 2),
    String(summary.samples),
  ];
  return {
    title: "MCP client over stdio (ms)",
    headers: ["measure", "median", "p25", "p75", "runs"],
    rows: [
      row(`server-memory: node start + initialize + tools/list (${report.memoryTools} tools)`, report.memoryStart),
      row(`fixture: start + initialize + tools/list (${report.fixtureTools} tools, 10 pages)`, report.fixtureStart),
      row("tools/call round trip (echo)", report.call),
      row("close → server process gone", report.close),
    ],
    notes: mcpGoals(report).map((entry) =>
      goalText(entry.name, `${fixed(entry.value, 2)} ms`, `${entry.limit} ms`, entry.met),
    ),
  };
}
