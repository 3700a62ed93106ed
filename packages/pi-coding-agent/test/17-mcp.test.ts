// Checkpoint 17's focused tests: the MCP client against the fixture server (mcp-fixture/server.ts),
// a real child process over stdin/stdout pipes. Lab 17.1's tests use the bare JSON-RPC connection
// (no initialize), 17.2's the lifecycle and the bare requests, from 17.3 on the client's own calls.
import assert from "node:assert/strict";
import { test } from "node:test";
import { executeToolCall } from "@pi/core";
import { ExposedRegistry } from "../src/exposure/registry.js";
import { toolSearchTool } from "../src/exposure/tool-search.js";
import { McpClient } from "../src/mcp/client.js";
import { JsonRpcConnection } from "../src/mcp/connection.js";
import { McpConnectionError, McpRemoteError } from "../src/mcp/errors.js";
import { classifyMessage } from "../src/mcp/jsonrpc-message.js";
import { initialize } from "../src/mcp/lifecycle.js";
import { NdjsonReader } from "../src/mcp/ndjson-reader.js";
import { mcpTools } from "../src/mcp/server-tools.js";
import { MAX_TOOL_NAME_LENGTH, mcpToolName } from "../src/mcp/tool-names.js";
import type { Transport } from "../src/mcp/transport.js";
import { signalProcessGroup } from "../src/tools/process-group.js";
import { fixtureTransport, gone, startFixture } from "./mcp-fixture/start.js";

type Json = Record<string, unknown>;

/** The fixture's answer to a bare `tools/call` (no initialize, no client): its text. */
async function callText(connection: JsonRpcConnection, name: string, args?: Json): Promise<string> {
  const result = (await connection.request(
    "tools/call",
    args === undefined ? { name } : { name, arguments: args },
  )) as {
    content: { text: string }[];
  };
  return result.content[0]?.text ?? "";
}

/** What the fixture has seen: every notification and initialize's params. */
async function seen(connection: JsonRpcConnection): Promise<{
  notifications: { method: string; params?: { requestId?: unknown } }[];
  initializeParams: { protocolVersion: string; capabilities: unknown; clientInfo: { name: string; version: string } };
}> {
  return JSON.parse(await callText(connection, "seen"));
}

/** A bare connection to a fresh fixture; `use` runs, then the server is closed and gone. */
async function withConnection(use: (connection: JsonRpcConnection, errors: Error[]) => Promise<void>): Promise<void> {
  const transport = fixtureTransport();
  const errors: Error[] = [];
  const connection = await JsonRpcConnection.open(transport, { timeoutMs: 60_000, onError: (e) => errors.push(e) });
  try {
    await use(connection, errors);
  } finally {
    await connection.close();
  }
  await gone(transport.pid ?? 0);
}

// Lab 17.1 · 消息

test("消息：请求、通知、响应只按字段区分，三类互斥，错误响应带着 code 与 message", () => {
  const kind = (value: unknown) => classifyMessage(value).kind;
  assert.equal(kind({ jsonrpc: "2.0", id: 1, method: "tools/list" }), "request", "有 method 有 id 是请求");
  assert.equal(kind({ jsonrpc: "2.0", id: "a", method: "ping" }), "request", "id 可以是字符串");
  assert.equal(
    kind({ jsonrpc: "2.0", method: "notifications/initialized" }),
    "notification",
    "有 method 没有 id 是通知",
  );
  assert.equal(kind({ jsonrpc: "2.0", id: 1, result: {} }), "response", "有 id、有 result、没有 method 是响应");
  assert.equal(
    kind({ jsonrpc: "2.0", id: 1, result: null }),
    "response",
    "result 为 null 也是响应：看字段在不在，不看值",
  );
  assert.deepEqual(
    classifyMessage({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "bad" } }),
    { kind: "error-response", id: 7, error: { code: -32602, message: "bad" } },
    "有 id、有 error 是错误响应，带着 code 与 message",
  );
  assert.equal(
    kind({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }),
    "error-response",
    "id 为 null 的错误响应（服务器读不懂请求时）也是错误响应",
  );
  for (const value of [
    null,
    [],
    "text",
    { id: 1, result: {} },
    { jsonrpc: "2.0" },
    { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } },
    { jsonrpc: "2.0", id: 1, method: "x", result: {} },
    { jsonrpc: "2.0", id: 1.5, method: "x" },
    { jsonrpc: "2.0", id: 1, error: "oops" },
    { jsonrpc: "2.0", method: 7 },
  ]) {
    const message = classifyMessage(value);
    assert.equal(message.kind, "invalid", `不属于任何一类的消息是 invalid（不抛异常）：${JSON.stringify(value)}`);
    assert.ok("reason" in message && message.reason !== "", `invalid 说出原因：${JSON.stringify(value)}`);
  }
});

test("消息：stdout 按换行切成消息，半行等剩下的部分，垃圾行是一个错误事件，之后照常读", () => {
  const values: unknown[] = [];
  const garbage: Error[] = [];
  const reader = new NdjsonReader({
    value: (value) => values.push(value),
    garbage: (error) => garbage.push(error),
    overflow: (error) => assert.fail(`不应超长：${error.message}`),
  });
  const line = `${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "你好" } })}\n`;
  const bytes = Buffer.from(line);
  // The cut falls inside the multi-byte character: the bytes are joined before they are decoded.
  const cut = bytes.indexOf(Buffer.from("好")) + 1;
  reader.push(bytes.subarray(0, cut));
  assert.deepEqual(values, [], "半行不是消息：等剩下的部分");
  reader.push(bytes.subarray(cut));
  assert.deepEqual(
    values,
    [{ jsonrpc: "2.0", id: 1, result: { text: "你好" } }],
    "两半拼成一条消息（按字节拼，再解码）",
  );
  reader.push(Buffer.from('this is not json\n\n{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0",'));
  assert.equal(garbage.length, 1, "一行垃圾是一个错误事件；空行跳过");
  assert.match(garbage[0]?.message ?? "", /not JSON/, "错误事件说出那一行不是 JSON");
  assert.deepEqual(values.at(-1), { jsonrpc: "2.0", method: "a" }, "垃圾行之后照常读");
  reader.push(Buffer.from('"method":"b"}\n'));
  assert.deepEqual(values.at(-1), { jsonrpc: "2.0", method: "b" }, "一块数据里的最后半行也等下一块");
  assert.equal(values.length, 3, "三行 JSON 是三条消息：垃圾行与空行都不算");
});

test("消息：同一连接里 id 唯一、响应按 id 配对；没有类别的消息与服务器的请求都不让连接停下", async () => {
  await withConnection(async (connection, errors) => {
    const texts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => callText(connection, "echo", { text: `n${i}` })),
    );
    assert.deepEqual(
      texts,
      Array.from({ length: 20 }, (_, i) => `n${i}`),
      "并发的 20 个请求各自拿到自己的响应：id 在连接里唯一，响应按 id 配对，不按到达顺序",
    );
    assert.equal(await callText(connection, "nokind"), "after nokind", "没有类别的消息之后，连接照常工作");
    assert.equal(errors.length, 1, "没有类别的消息是一个错误事件（onError），不是崩溃");
    assert.match(errors[0]?.message ?? "", /no JSON-RPC kind/, "错误事件说出它不属于任何一类");
    const reply = JSON.parse(await callText(connection, "ask")) as Json;
    assert.equal(reply.id, "ask-22", "服务器发来的请求要用它自己的 id 回答");
    assert.equal(
      (reply.error as Json | undefined)?.code,
      -32601,
      "这个客户端不提供任何能力：服务器的请求得到 -32601（Method not found）",
    );
    assert.equal(await callText(connection, "nullerror"), "after nullerror", "id 为 null 的错误响应之后，连接照常工作");
    assert.equal(
      errors.length,
      2,
      "id 为 null 的错误响应（服务器读不懂某个请求）不配给任何请求，是一个错误事件（onError）",
    );
    assert.deepEqual(
      await Promise.all([
        callText(connection, "pair", { text: "first" }),
        callText(connection, "pair", { text: "second" }),
      ]),
      ["first", "second"],
      "服务器先答了后发的请求：响应按 id 配对，不按到达顺序",
    );
    assert.equal(connection.inFlight, 0, "每个请求都配上了响应");
  });
});

// Lab 17.2 · 生命周期

test("生命周期：initialize 带最新协议版本 2025-11-25 与客户端的名字、版本，随后发 notifications/initialized", async () => {
  const { client, pid } = await startFixture([], { client: { name: "learner-client", version: "1.2.3" } });
  try {
    assert.equal(client.server.protocolVersion, "2025-11-25", "服务器回答同一版本时就用它");
    assert.deepEqual(client.server.serverInfo, { name: "fixture", version: "1.0.0" }, "记下服务器的名字与版本");
    const { initializeParams, notifications } = await seen(client.connection);
    assert.equal(initializeParams.protocolVersion, "2025-11-25", "initialize 带客户端支持的最新版本");
    assert.deepEqual(
      initializeParams.clientInfo,
      { name: "learner-client", version: "1.2.3" },
      "initialize 带客户端的名字与版本",
    );
    assert.deepEqual(initializeParams.capabilities, {}, "initialize 带 capabilities（这个客户端什么也不提供：{}）");
    assert.deepEqual(
      notifications.map((n) => n.method),
      ["notifications/initialized"],
      "initialize 的响应之后发且只发一条 notifications/initialized",
    );
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("生命周期：服务器回答客户端也支持的旧版本（2025-06-18、2025-03-26、2024-11-05）时接受并用它", async () => {
  for (const version of ["2025-06-18", "2025-03-26", "2024-11-05"]) {
    const transport = fixtureTransport(["--answer-version", version]);
    const agreed: string[] = [];
    (transport as Transport).setProtocolVersion = (v: string) => agreed.push(v);
    const client = await McpClient.connect(transport, { startupTimeoutMs: 60_000, timeoutMs: 60_000 }).catch(
      (error: Error) => assert.fail(`服务器回答 ${version}：客户端也支持，接受并用它；实际被拒绝：${error.message}`),
    );
    const pid = transport.pid ?? 0;
    try {
      assert.equal(client.server.protocolVersion, version, `服务器回答 ${version}：客户端也支持，接受并用它`);
      assert.deepEqual(
        agreed,
        [version],
        `接受的版本 ${version} 交给 setProtocolVersion（HTTP 传输把它放进以后每个请求的头里）`,
      );
      assert.equal(await callText(client.connection, "echo", { text: "ok" }), "ok", `${version} 的连接照常工作`);
    } finally {
      await client.close();
    }
    await gone(pid);
  }
});

test("生命周期：服务器回答客户端不支持的版本时关闭连接，一行里写出两边的版本", async () => {
  const transport = fixtureTransport(["--answer-version", "1999-01-01"]);
  let closed = false;
  await assert.rejects(
    McpClient.connect(transport, { startupTimeoutMs: 60_000, onClose: () => (closed = true) }),
    (error: Error) => {
      assert.ok(error instanceof McpConnectionError, `不支持的版本是连接错误：${error.message}`);
      assert.match(error.message, /1999-01-01/, "那一行写出服务器回答的版本");
      assert.match(error.message, /2025-11-25/, "那一行写出客户端的版本");
      assert.doesNotMatch(error.message, /\n/, "只有一行");
      return true;
    },
  );
  await gone(transport.pid ?? 0);
  assert.equal(closed, true, "不支持的版本：连接关闭，服务器进程结束");
  const bare = fixtureTransport(["--answer-version", "1999-01-01"]);
  const connection = await JsonRpcConnection.open(bare, { timeoutMs: 60_000 });
  try {
    await assert.rejects(initialize(connection, { name: "learner-client", version: "1.2.3" }), McpConnectionError);
    assert.equal(
      connection.isClosed,
      true,
      "initialize() 拒绝不支持的版本之前先关闭连接（服务器进程随之结束），再抛出那一行",
    );
  } finally {
    await connection.close();
  }
  await gone(bare.pid ?? 0);
});

// Lab 17.3 · 工具

test("工具：tools/list 跟着 nextCursor 一页页取，直到没有下一页；名字、描述、inputSchema 都留下", async () => {
  const { client, pid } = await startFixture(["--tools", "25", "--page-size", "7"]);
  try {
    const tools = await client.listTools();
    assert.equal(tools.length, 14 + 25, "每一页的工具都列出：nextCursor 没有了才停");
    assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length, "每个工具只出现一次");
    assert.equal(tools[0]?.name, "echo", "按服务器给的顺序");
    assert.equal(tools.at(-1)?.name, "tool_0025", "最后一页也取到了");
    assert.equal(tools[0]?.description, "Echoes its text", "留下描述");
    assert.deepEqual(
      tools[0]?.inputSchema,
      { type: "object", properties: { text: { type: "string" } } },
      "留下 inputSchema（它就是工具的参数 schema）",
    );
  } finally {
    await client.close();
  }
  await gone(pid);
  const empty = await startFixture(["--tools", "5", "--page-size", "7", "--empty-last-cursor"]);
  try {
    const rule = "nextCursor 是空串也表示没有下一页：不拿空串当 cursor 再取";
    const tools = await empty.client
      .listTools()
      .catch((error: Error) => assert.fail(`${rule}；实际：${error.message}`));
    assert.equal(tools.length, 14 + 5, rule);
  } finally {
    await empty.client.close();
  }
  await gone(empty.pid);
});

test("工具：tools/list 拒绝重复的 cursor，页数有上限，各是一行", async () => {
  const { client, pid } = await startFixture(["--tools", "5", "--page-size", "2", "--repeat-cursor"]);
  try {
    await assert.rejects(client.listTools(), (error: Error) => {
      assert.match(error.message, /repeated cursor/, "见过的 cursor 再出现就是死循环：拒绝");
      assert.doesNotMatch(error.message, /\n/, "只有一行");
      return true;
    });
    await assert.rejects(client.listTools({ maxPages: 1 }), /more than 1 pages/, "超过页数上限：拒绝，不无限地取下去");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("工具：tools/call 没有参数时不带 arguments；内容块变成文本，别的类型写出名字；isError 与 JSON-RPC 错误各不相同", async () => {
  const { client, pid } = await startFixture();
  try {
    assert.deepEqual(
      JSON.parse((await client.callTool("params")).text),
      { name: "params" },
      "没有参数时不带 arguments",
    );
    assert.deepEqual(
      JSON.parse((await client.callTool("params", {})).text),
      { name: "params" },
      "空参数也不带 arguments",
    );
    assert.deepEqual(
      JSON.parse((await client.callTool("params", { a: 1 })).text),
      { name: "params", arguments: { a: 1 } },
      "有参数时原样放进 arguments",
    );
    const mixed = (await client.callTool("mixed")).text;
    assert.match(mixed, /^a chart:/, "文本块原样");
    assert.ok(mixed.includes("[image content: image/png"), `图片块写出类型与 MIME，不悄悄丢掉：${mixed}`);
    assert.ok(
      mixed.includes("[resource content: file:///tmp/report.txt"),
      `资源块写出类型与 URI，不悄悄丢掉：${mixed}`,
    );
    const failed = await client.callTool("fail");
    assert.deepEqual(
      [failed.isError, failed.text],
      [true, "disk quota exceeded"],
      "isError: true 是工具自己的失败，带着它的文本",
    );
    await assert.rejects(
      client.callToolOrThrow("fail"),
      /disk quota exceeded/,
      "isError 抛出工具的文本：执行器把它配成失败的结果",
    );
    await assert.rejects(client.callTool("no_such_tool"), (error: Error) => {
      assert.ok(error instanceof McpRemoteError, "JSON-RPC 错误是 McpRemoteError，不是工具结果");
      assert.equal(error.code, -32602, "带着服务器的错误码");
      assert.match(error.message, /Unknown tool: no_such_tool/, "带着服务器的消息");
      return true;
    });
  } finally {
    await client.close();
  }
  await gone(pid);
});

// Lab 17.4 · 时间与取消

test("时间与取消：调用方中止与请求超时都发 notifications/cancelled 带着请求 id；迟到的响应被忽略", async () => {
  const { client, pid, errors } = await startFixture();
  try {
    const controller = new AbortController();
    const held = client.callTool("hold", undefined, { signal: controller.signal });
    // The request is written before the abort (request() writes it synchronously): the server holds it.
    setImmediate(() => controller.abort());
    await assert.rejects(held, (error: Error) => {
      assert.ok(error instanceof McpConnectionError && error.reason === "aborted", `中止报 aborted：${error.message}`);
      return true;
    });
    await assert.rejects(client.callTool("hold", undefined, { timeoutMs: 1 }), (error: Error) => {
      assert.ok(
        error instanceof McpConnectionError && error.reason === "timeout",
        `超时报 timeout，不报 aborted：${error.message}`,
      );
      return true;
    });
    const cancelled = (await seen(client.connection)).notifications.filter(
      (n) => n.method === "notifications/cancelled",
    );
    assert.deepEqual(
      cancelled.map((n) => n.params?.requestId),
      [2, 3],
      "中止与超时各发一条 notifications/cancelled，带着被放弃的请求的 id（initialize 是 1）",
    );
    // The fixture answers each cancelled call late ("late answer"): the client must not take it.
    assert.equal(
      (await client.callTool("echo", { text: "still here" })).text,
      "still here",
      "迟到的响应之后连接照常工作",
    );
    assert.deepEqual(errors, [], "迟到的响应被安静地忽略，不是错误事件");
    assert.equal(client.connection.inFlight, 0, "放弃的请求不再等待");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("时间与取消：initialize 超时也不发取消；传输关闭时每个在途请求都被拒绝，一行", async () => {
  const transport = fixtureTransport(["--silent-init"]);
  const connection = await JsonRpcConnection.open(transport, { timeoutMs: 60_000 });
  try {
    await assert.rejects(
      connection.request("initialize", {}, { timeoutMs: 1 }),
      /initialize timed out/,
      "initialize 超时",
    );
    const { notifications } = await seen(connection);
    assert.deepEqual(
      notifications.map((n) => n.method),
      [],
      "客户端不能取消 initialize：它超时了也不发 notifications/cancelled",
    );
    const held = [callText(connection, "hold"), callText(connection, "hold")];
    const crash = callText(connection, "exit");
    for (const request of [...held, crash]) {
      await assert.rejects(request, (error: Error) => {
        assert.ok(
          error instanceof McpConnectionError && error.reason === "closed",
          `服务器中途退出：每个在途请求都被拒绝（closed），不是一直等下去：${error.message}`,
        );
        assert.match(error.message, /code 3/, "那一行写出退出码");
        assert.doesNotMatch(error.message, /\n/, "只有一行");
        return true;
      });
    }
    assert.equal(connection.inFlight, 0, "关闭之后没有在途的请求");
    await assert.rejects(callText(connection, "echo"), /connection closed/, "关闭之后的请求立即失败");
  } finally {
    await connection.close();
  }
  await gone(transport.pid ?? 0);
});

// Lab 17.5 · 子进程与命名

test("子进程与命名：stdin 关闭不退出的服务器收到 SIGTERM，不理会 SIGTERM 的被 SIGKILL，它启动的子进程一起结束", async () => {
  const logs: string[] = [];
  // The polite server exits on SIGTERM once its grandchild has ended: reached by a SIGTERM sent to
  // the group, the grandchild ends at once; a SIGTERM to the leader alone leaves both waiting for
  // the SIGKILL after the grace, and the server never says so. The grace is generous, so that on a
  // loaded machine the server's own exit (not the SIGKILL) ends it, and shorter than a test's limit.
  // Both servers ignore stdin's end (and the stubborn one SIGTERM too), so the short graces before
  // each escalation change nothing they do; they only keep the test from waiting for nothing.
  const polite = fixtureTransport(["--ignore-eof", "--term-group"], {
    onLog: (line) => logs.push(line),
    stdinGraceMs: 20,
    termGraceMs: 20_000,
  });
  const stubborn = fixtureTransport(["--stubborn"], { stdinGraceMs: 20, termGraceMs: 20 });
  try {
    const politeClient = await McpClient.connect(polite, { startupTimeoutMs: 60_000 });
    await politeClient.close();
    await gone(polite.pid ?? 0);
    if (process.platform !== "win32") {
      assert.ok(
        logs.some((line) => line.startsWith("fixture: SIGTERM")),
        `stdin 关闭后不退出：发 SIGTERM：${JSON.stringify(logs)}`,
      );
      assert.ok(
        logs.includes("fixture: SIGTERM, grandchild ended by SIGTERM, exiting"),
        `SIGTERM 发给整个进程组（-pid），服务器启动的子进程也收到它，不是只发给服务器自己：${JSON.stringify(logs)}`,
      );
    }
    const stubbornClient = await McpClient.connect(stubborn, { startupTimeoutMs: 60_000 });
    const grandchild = Number((await stubbornClient.callTool("spawn")).text);
    assert.ok(grandchild > 0, "服务器启动了一个子进程");
    await stubbornClient.close();
    await gone(stubborn.pid ?? 0);
    await gone(grandchild);
  } finally {
    // The test's own safety net, so that a close that fails leaves nothing running.
    for (const transport of [polite, stubborn])
      if (transport.pid !== undefined) signalProcessGroup(transport.pid, "SIGKILL");
  }
});

test("子进程与命名：名字是 mcp__<server>__<tool>，只用字母数字 _ -，最长 64，冲突或过长时截断并加 8 位十六进制哈希", () => {
  assert.equal(
    mcpToolName("memory", "create_entities"),
    "mcp__memory__create_entities",
    "名字是 mcp__<服务器>__<工具>",
  );
  assert.equal(mcpToolName("my server", "read.file"), "mcp__my_server__read_file", "别的字符换成 _");
  const long = mcpToolName("filesystem", "x".repeat(80));
  assert.ok(long.length <= MAX_TOOL_NAME_LENGTH, `过长的名字截到 64 个字符以内：${long.length}`);
  assert.equal(long.length, MAX_TOOL_NAME_LENGTH, "截断时用满 64 个字符");
  assert.match(long, /^mcp__filesystem__x+_[0-9a-f]{8}$/, "截断的名字以 _ 加 8 位十六进制哈希结尾");
  assert.equal(mcpToolName("filesystem", "x".repeat(80)), long, "哈希来自服务器与工具的名字：每次都一样");
  assert.notEqual(mcpToolName("filesystem", `${"x".repeat(80)}y`), long, "两个不同的长名字截断后仍不同");
  const clash = mcpToolName("a", "b", new Set(["mcp__a__b"]));
  assert.match(clash, /^mcp__a__b_[0-9a-f]{8}$/, "名字已被占用：加哈希后缀");
  const again = mcpToolName("a", "b", new Set(["mcp__a__b", clash]));
  assert.ok(again !== clash && /^mcp__a__b_[0-9a-f]{8}$/.test(again), "带后缀的名字也被占用了：换一个后缀，永不重名");
  assert.equal(mcpToolName("a.b", "c"), "mcp__a_b__c", "服务器名里的别的字符也换成 _");
});

test("子进程与命名：服务器的 tool 注册成延迟的，tool_search 找到后调用走 tools/call，isError 配成失败的结果", async () => {
  const { client, pid } = await startFixture();
  try {
    const registry = new ExposedRegistry();
    const taken = new Set<string>();
    for (const tool of mcpTools("fixture", client, await client.listTools(), taken))
      registry.register(tool, "deferred");
    registry.register(toolSearchTool(registry));
    assert.deepEqual(
      registry.definitions().map((tool) => tool.name),
      ["tool_search"],
      "服务器的工具是延迟的：第一次请求只声明 tool_search",
    );
    const search = await executeToolCall(
      { type: "toolCall", id: "s1", name: "tool_search", arguments: { query: "echoes text" } },
      registry,
      {},
    );
    assert.equal(search.isError, false, search.content[0]?.text);
    registry.definitions();
    const echo = await executeToolCall(
      { type: "toolCall", id: "c1", name: "mcp__fixture__echo", arguments: { text: "经过 MCP" } },
      registry,
      {},
    );
    assert.deepEqual(
      [echo.toolCallId, echo.isError, echo.content[0]?.text],
      ["c1", false, "经过 MCP"],
      "找到以后 mcp__fixture__echo 走 tools/call，文本成为配对的工具结果",
    );
    registry.activate(["mcp__fixture__fail"]);
    registry.definitions();
    const fail = await executeToolCall(
      { type: "toolCall", id: "c2", name: "mcp__fixture__fail", arguments: {} },
      registry,
      {},
    );
    assert.deepEqual(
      [fail.toolCallId, fail.isError, fail.content[0]?.text],
      ["c2", true, "disk quota exceeded"],
      "isError: true 成为配对的失败结果，带着工具的文本",
    );
  } finally {
    await client.close();
  }
  await gone(pid);
});
