// tiny-pi on a pseudo-terminal: a workspace's MCP server is asked about before it starts; the answer
// is remembered by the mcp.json's real path and the entry's content hash (a later run without a
// terminal starts it unasked), and a changed entry is asked about again.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply } from "../cli-support/chat-server.js";
import { put, withProject } from "../cli-support/project.js";
import { ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { runCli } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";
import { FIXTURE_SERVER } from "../mcp-fixture/start.js";

const skip = ptyUnavailable();
const model = (baseURL: string) => ["--base-url", baseURL, "--model", "m", "--no-session"];
const config = (tools: string) =>
  JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE_SERVER, "--tools", tools] } } });

test("tiny-pi MCP 服务器的信任（终端）：第一次询问，答 y 按真实路径与这一项的内容哈希记下；这一项改动后再问", {
  skip,
  timeout: HANG_GUARD_MS,
}, async (t) => {
  await withProject(async ({ workspace, home, env }) => {
    const file = path.join(workspace, ".tiny-pi", "mcp.json");
    await put(file, config("2"));
    const server = await startChatServer([textReply(["好"]), textReply(["好"]), textReply(["好"]), textReply(["好"])]);
    try {
      const first = startOnPty([...model(server.baseURL), "你好"], workspace, env);
      t.after(() => first.stop());
      await first.waitFor("启动 MCP 服务器 fixture");
      await first.waitFor("(y / n)");
      first.type("y\r");
      assert.equal(await first.exited, 0, first.screen());
      assert.match(first.screen(), /已启动 MCP 服务器：fixture（16 个工具）/);
      const record = JSON.parse(await readFile(path.join(home, "trusted-mcp-servers.json"), "utf8"));
      assert.match(record[`${file}#fixture`]?.sha256 ?? "", /^[0-9a-f]{64}$/, "信任按真实路径与这一项记下内容哈希");

      const again = await runCli([...model(server.baseURL), "你好"], workspace, env);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /已启动 MCP 服务器：fixture/, "记下的信任：没有终端也启动");

      await put(file, config("3"));
      const changed = await runCli([...model(server.baseURL), "你好"], workspace, env);
      assert.match(changed.stderr, /没有启动 MCP 服务器 fixture/, "改过的这一项不再算信任");

      const asked = startOnPty([...model(server.baseURL), "你好"], workspace, env);
      t.after(() => asked.stop());
      await asked.waitFor("启动 MCP 服务器 fixture");
      asked.type("n\r");
      assert.equal(await asked.exited, 0, asked.screen());
      assert.match(asked.screen(), /没有启动 MCP 服务器 fixture：你没有信任它/);
    } finally {
      await server.close();
    }
  });
});
