// tiny-pi with MCP servers from .tiny-pi/mcp.json (workspace) and the home's mcp.json: the workspace's
// servers pass the trust gate (not started without a terminal unless --trust-mcp), their tools are
// deferred behind tool_search unless the server is marked direct and go through the permission gate
// unless it is read-only, only the configured variables reach a
// server, a server that fails to start is one line and the run goes on, and none outlives the run.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { PI_CLI, piUnavailable } from "../cli-support/pi-upstream.js";
import { processesIn, waitFor } from "../cli-support/processes.js";
import { put, withProject } from "../cli-support/project.js";
import { isOneLine, runCli, sessionFiles, sessionMessages } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";
import { FIXTURE_SERVER } from "../mcp-fixture/start.js";

const require = createRequire(import.meta.url);
const memoryServer = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist/index.js",
);
/** The entries upstream Pi's `--offline --export` embeds in its page for session `file` (its own HOME under `dir`). */
async function piExportedEntries(file: string, dir: string): Promise<{ message?: { toolName?: string } }[]> {
  const home = path.join(dir, "pi-home");
  await mkdir(home, { recursive: true });
  const out = path.join(dir, "pi-export.html");
  const result = spawnSync(process.execPath, [PI_CLI, "--offline", "--export", file, out], {
    cwd: dir,
    env: { ...process.env, HOME: home, USERPROFILE: home },
    encoding: "utf8",
  });
  assert.equal(result.status, 0, `pi --offline --export：${result.stderr}${result.stdout}`);
  const data = /<script id="session-data"[^>]*>([^<]*)<\/script>/.exec(await readFile(out, "utf8"))?.[1] ?? "";
  return (JSON.parse(Buffer.from(data.trim(), "base64").toString("utf8")) as { entries?: [] }).entries ?? [];
}

const model = (baseURL: string) => ["--base-url", baseURL, "--model", "m"];
const mcpJson = (servers: object) => JSON.stringify({ mcpServers: servers });
const noneLeft = (workspace: string) =>
  process.platform === "linux"
    ? waitFor("MCP 服务器进程结束", () => processesIn(workspace).length === 0, HANG_GUARD_MS)
    : undefined;

test("tiny-pi MCP：工作区配置的服务器没有终端时不启动（一行说明），加 --trust-mcp 才启动", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withProject(async ({ workspace, env }) => {
    await put(
      path.join(workspace, ".tiny-pi", "mcp.json"),
      mcpJson({ memory: { command: process.execPath, args: [memoryServer] } }),
    );
    const server = await startChatServer([textReply(["好"]), textReply(["好"])]);
    try {
      const refused = await runCli([...model(server.baseURL), "--no-session", "你好"], workspace, env);
      assert.equal(refused.code, 0, refused.stderr);
      assert.match(refused.stderr, /没有启动 MCP 服务器 memory：.*加 --trust-mcp 才启动/, "未信任的服务器应一行说明");
      const trusted = await runCli(
        [...model(server.baseURL), "--no-session", "--trust-mcp", "--defer-tools", "none", "你好"],
        workspace,
        env,
      );
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.match(trusted.stderr, /已启动 MCP 服务器：memory（9 个工具）/);
      assert.match(
        trusted.stderr,
        /延迟 9 个（模型用 tool_search 按需找到；MCP 服务器的工具在 mcp\.json 里写 "direct": true 直接声明）/,
        "--defer-tools 只管扩展工具：开始的一行不说它能让 MCP 工具直接声明，而说 mcp.json 的 direct",
      );
      const names = ((server.requests[1]?.tools ?? []) as { function: { name: string } }[]).map(
        (tool) => tool.function.name,
      );
      assert.ok(names.includes("tool_search"), `服务器的工具推迟在 tool_search 之后：${names.join(", ")}`);
      assert.ok(!names.includes("mcp__memory__create_entities"), "推迟的工具一开始不告诉模型");
    } finally {
      await server.close();
    }
    await noneLeft(workspace);
  });
});

test("tiny-pi MCP：模型用 tool_search 找到 mcp__memory__create_entities 再调用它，经过权限门（--yes），会话文件记下调用与结果", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withProject(async ({ workspace, env }) => {
    const memoryFile = path.join(workspace, "memory.jsonl");
    await put(
      path.join(workspace, ".tiny-pi", "mcp.json"),
      mcpJson({ memory: { command: process.execPath, args: [memoryServer], env: { MEMORY_FILE_PATH: memoryFile } } }),
    );
    const entities = { entities: [{ name: "tiny-pi", entityType: "agent", observations: ["speaks MCP"] }] };
    const search = { query: "create entities in the knowledge graph memory" };
    const server = await startChatServer([
      toolCallReply("search_1", "tool_search", search),
      toolCallReply("call_1", "mcp__memory__create_entities", entities),
      textReply(["没有终端，被拒绝了"]),
      toolCallReply("search_2", "tool_search", search),
      toolCallReply("call_2", "mcp__memory__create_entities", entities),
      textReply(["记下了"]),
    ]);
    try {
      const denied = await runCli([...model(server.baseURL), "--no-session", "--trust-mcp", "记住我"], workspace, env);
      assert.equal(denied.code, 0, denied.stderr);
      await assert.rejects(readFile(memoryFile, "utf8"), "没有终端也没有 --yes：权限门拒绝了这次调用");
      const run = await runCli([...model(server.baseURL), "--trust-mcp", "--yes", "记住我"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(await readFile(memoryFile, "utf8"), /speaks MCP/, "实体应真的存进了服务器的记忆文件");
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined, "应写了会话文件");
      const messages = await sessionMessages(file);
      const found = messages.find((message) => message.role === "toolResult" && message.toolCallId === "search_2");
      assert.match(JSON.stringify(found?.content), /mcp__memory__create_entities/, "tool_search 应找到并加载这个工具");
      const declared = ((server.requests[4]?.tools ?? []) as { function: { name: string } }[]).map(
        (tool) => tool.function.name,
      );
      assert.ok(declared.includes("mcp__memory__create_entities"), "搜索之后的下一个请求声明了找到的工具");
      const call = messages.find(
        (message) => message.role === "assistant" && JSON.stringify(message).includes("call_2"),
      );
      assert.ok(call !== undefined, "会话文件应记下这次调用");
      const result = messages.find((message) => message.role === "toolResult" && message.toolCallId === "call_2");
      assert.equal(result?.toolName, "mcp__memory__create_entities");
      assert.equal(result?.isError, false, JSON.stringify(result));
      assert.match(JSON.stringify(result?.content), /tiny-pi/, "会话文件应记下服务器的结果");
      if (piUnavailable() === undefined) {
        const exported = await piExportedEntries(file, workspace);
        const names = exported.flatMap((entry) => (entry.message?.toolName ? [entry.message.toolName] : []));
        assert.ok(
          names.includes("mcp__memory__create_entities"),
          `上游 Pi 的 --offline --export 读得了用过 MCP 工具的会话，页面里有这次调用的结果：${names.join(", ")}`,
        );
      }
    } finally {
      await server.close();
    }
    await noneLeft(workspace);
  });
});

test("tiny-pi MCP：只有配置里写明的环境变量传给服务器，tiny-pi 自己的密钥不传；只读服务器不经权限门，direct 的服务器不推迟", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withProject(async ({ workspace, home, env }) => {
    await put(
      path.join(home, "mcp.json"),
      mcpJson({
        fixture: {
          command: process.execPath,
          args: [FIXTURE_SERVER],
          env: { NAMED_FOR_SERVER: "1" },
          readOnly: true,
          direct: true,
        },
      }),
    );
    const server = await startChatServer([toolCallReply("call_1", "mcp__fixture__env", {}), textReply(["看过了"])]);
    try {
      const run = await runCli([...model(server.baseURL), "看看环境"], workspace, {
        ...env,
        OPENAI_API_KEY: "sk-secret-of-tiny-pi",
        SOME_OTHER_TOKEN: "not-for-servers",
      });
      assert.equal(run.code, 0, run.stderr);
      const [file] = await sessionFiles(workspace);
      const result = (await sessionMessages(file ?? "")).find((message) => message.role === "toolResult");
      assert.equal(result?.isError, false, `只读服务器的调用不经权限门：${JSON.stringify(result)}`);
      const content = (result?.content ?? []) as { text: string }[];
      const names = JSON.parse(content[0]?.text ?? "[]") as string[];
      assert.ok(names.includes("NAMED_FOR_SERVER"), "配置里写明的变量应传给服务器");
      assert.ok(names.includes("PATH"), "PATH 照常传");
      assert.ok(!names.includes("OPENAI_API_KEY"), "tiny-pi 的模型密钥不能传给服务器");
      assert.ok(!names.includes("SOME_OTHER_TOKEN"), "没写在配置里的变量不传");
    } finally {
      await server.close();
    }
    await noneLeft(workspace);
  });
});

test("tiny-pi MCP：启动失败的服务器一行说明（带着它 stderr 的最后一行），这一轮照常进行", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withProject(async ({ workspace, home, env }) => {
    await put(
      path.join(home, "mcp.json"),
      mcpJson({ broken: { command: process.execPath, args: [FIXTURE_SERVER, "--fail-start"] } }),
    );
    const server = await startChatServer([textReply(["照常回答"])]);
    try {
      const run = await runCli([...model(server.baseURL), "--no-session", "你好"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /照常回答/);
      const line = run.stderr.split("\n").find((text) => text.includes("broken"));
      assert.ok(line !== undefined && isOneLine(line));
      assert.match(line, /MCP 服务器 broken 没有启动：.*missing FIXTURE_TOKEN/);
    } finally {
      await server.close();
    }
    await noneLeft(workspace);
  });
});

test("tiny-pi mcp：列出服务器、来源、信任、状态与工具数，不启动未信任的服务器", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withProject(async ({ workspace, home, env }) => {
    await put(
      path.join(home, "mcp.json"),
      mcpJson({ fixture: { command: process.execPath, args: [FIXTURE_SERVER, "--tools", "3"] } }),
    );
    await put(
      path.join(workspace, ".tiny-pi", "mcp.json"),
      mcpJson({ memory: { command: process.execPath, args: [memoryServer] } }),
    );
    const listed = await runCli(["mcp"], workspace, env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /fixture .*你自己的配置/);
    assert.match(listed.stdout, /可用：fixture 1\.0\.0，协议 2025-11-25，17 个工具/);
    assert.match(listed.stdout, /memory .*未信任[\s\S]*未启动：未信任/);
    const allowed = await runCli(["mcp", "--trust-mcp"], workspace, env);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(
      allowed.stdout,
      /memory .*未记住信任，这次由 --trust-mcp 放行）\n {2}可用：/,
      "--trust-mcp 启动了未信任的服务器：信任一栏说它是这次放行的，不与“可用”矛盾",
    );
    await noneLeft(workspace);
  });
});
