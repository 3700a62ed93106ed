// The reference MCP servers published on npm (pinned devDependencies), started over stdio through the
// client: list their tools, call one with a real effect, close them leaving no process behind.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { McpClient, StdioTransport } from "../src/mcp/index.js";
import { gone } from "./mcp-fixture/start.js";

const require = createRequire(import.meta.url);
const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The server's bin script, from its installed package.json. */
function serverBin(name: string): string {
  const manifest = require.resolve(`@modelcontextprotocol/${name}/package.json`);
  const bin = (JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> }).bin;
  return path.join(path.dirname(manifest), Object.values(bin)[0] ?? "");
}

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "mcp-real-")));
  temps.push(dir);
  return dir;
}

async function start(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const transport = new StdioTransport({
    command: process.execPath,
    args: [serverBin(name), ...args],
    env: { PATH: process.env.PATH, ...env },
  });
  const client = await McpClient.connect(transport, {
    startupTimeoutMs: 120_000,
    timeoutMs: 120_000,
    lastLogLine: () => transport.lastLogLine,
  });
  return { client, pid: transport.pid ?? 0 };
}

test("server-filesystem：列出工具，在临时根目录下写一个文件再读回，关闭后不留进程", async () => {
  const root = tempDir();
  const { client, pid } = await start("server-filesystem", [root]);
  try {
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("write_file"), `应有 write_file：${names.join(", ")}`);
    const file = path.join(root, "note.txt");
    const written = await client.callTool("write_file", { path: file, content: "来自 MCP 的问候\n" });
    assert.equal(written.isError, false, written.text);
    assert.equal(readFileSync(file, "utf8"), "来自 MCP 的问候\n", "文件应真的写到了磁盘上");
    const readTool = names.includes("read_text_file") ? "read_text_file" : "read_file";
    const read = await client.callTool(readTool, { path: file });
    assert.match(read.text, /来自 MCP 的问候/);
    const outside = await client.callTool(readTool, { path: path.join(os.tmpdir(), "..", "etc", "passwd") });
    assert.equal(outside.isError, true, "根目录之外的路径应被服务器拒绝（isError）");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("server-memory：列出工具，建一个实体再读回，关闭后不留进程", async () => {
  const dir = tempDir();
  const memoryFile = path.join(dir, "memory.jsonl");
  const { client, pid } = await start("server-memory", [], { MEMORY_FILE_PATH: memoryFile });
  try {
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("create_entities") && names.includes("open_nodes"), names.join(", "));
    const created = await client.callTool("create_entities", {
      entities: [{ name: "tiny-pi", entityType: "agent", observations: ["speaks MCP"] }],
    });
    assert.equal(created.isError, false, created.text);
    const opened = await client.callTool("open_nodes", { names: ["tiny-pi"] });
    assert.match(opened.text, /speaks MCP/, "读回的实体应带着它的观察");
    assert.match(readFileSync(memoryFile, "utf8"), /tiny-pi/, "实体应真的存进了记忆文件");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("server-everything：列出分页的工具，调用 echo，关闭后不留进程", async () => {
  const { client, pid } = await start("server-everything", ["stdio"]);
  try {
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("echo"), names.join(", "));
    const echoed = await client.callTool("echo", { message: "ping" });
    assert.match(echoed.text, /ping/);
  } finally {
    await client.close();
  }
  await gone(pid);
});
