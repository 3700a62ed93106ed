// The MCP client against the fixture server (mcp-fixture/server.ts), a real child process over stdio.
import assert from "node:assert/strict";
import { test } from "node:test";
import { McpClient, McpConnectionError, McpRemoteError, McpToolFailure } from "../src/mcp/index.js";
import { fixtureTransport, gone, startFixture } from "./mcp-fixture/start.js";

test("生命周期：initialize 带 2025-11-25 与客户端名字、版本，随后发 notifications/initialized", async () => {
  const { client, pid } = await startFixture();
  try {
    assert.equal(client.server.protocolVersion, "2025-11-25");
    const seen = JSON.parse((await client.callTool("seen")).text) as {
      notifications: { method: string }[];
      initializeParams: { protocolVersion: string; clientInfo: { name: string; version: string } };
    };
    assert.equal(seen.initializeParams.protocolVersion, "2025-11-25", "initialize 应带最新协议版本");
    assert.equal(seen.initializeParams.clientInfo.name, "tiny-pi", "initialize 应带客户端名字");
    assert.equal(typeof seen.initializeParams.clientInfo.version, "string", "initialize 应带客户端版本");
    assert.equal(
      seen.notifications[0]?.method,
      "notifications/initialized",
      "握手之后第一条通知应是 notifications/initialized",
    );
  } finally {
    await client.close();
  }
  await gone(pid);
});

for (const version of ["2025-06-18", "2025-03-26", "2024-11-05"]) {
  test(`生命周期：服务器回答客户端也支持的旧版本 ${version} 时接受`, async () => {
    const { client, pid } = await startFixture(["--answer-version", version]);
    assert.equal(client.server.protocolVersion, version);
    await client.close();
    await gone(pid);
  });
}

test("生命周期：服务器回答不支持的版本时关闭连接，一行里写出两个版本", async () => {
  const transport = fixtureTransport(["--answer-version", "1999-01-01"]);
  await assert.rejects(McpClient.connect(transport, { startupTimeoutMs: 60_000 }), (error: Error) => {
    assert.ok(error instanceof McpConnectionError);
    assert.match(error.message, /1999-01-01/, "消息应写出服务器的版本");
    assert.match(error.message, /2025-11-25/, "消息应写出客户端的版本");
    assert.doesNotMatch(error.message, /\n/, "只有一行");
    return true;
  });
  await gone(transport.pid ?? 0);
});

test("tools/list：跟着 nextCursor 翻页直到没有下一页", async () => {
  const { client, pid } = await startFixture(["--tools", "25", "--page-size", "7"]);
  try {
    const tools = await client.listTools();
    assert.equal(tools.length, 12 + 25, "所有页的工具都应列出");
    assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length, "每个工具只出现一次");
    assert.equal(tools.at(-1)?.name, "tool_0025");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("tools/list：重复的 cursor 被拒绝，页数有上限", async () => {
  const { client, pid } = await startFixture(["--tools", "5", "--page-size", "2", "--repeat-cursor"]);
  try {
    await assert.rejects(client.listTools(), /repeated cursor/, "重复的 cursor 会无限循环，应拒绝");
    await assert.rejects(client.listTools({ maxPages: 1 }), /more than 1 pages/, "超过页数上限应拒绝");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("tools/call：没有参数时不带 arguments 字段，有参数时原样带上", async () => {
  const { client, pid } = await startFixture();
  try {
    assert.deepEqual(
      JSON.parse((await client.callTool("params")).text),
      { name: "params" },
      "没有参数时不应带 arguments",
    );
    assert.deepEqual(
      JSON.parse((await client.callTool("params", {})).text),
      { name: "params" },
      "空参数也不带 arguments",
    );
    assert.deepEqual(JSON.parse((await client.callTool("params", { a: 1 })).text), {
      name: "params",
      arguments: { a: 1 },
    });
    assert.equal((await client.callTool("echo", { text: "你好" })).text, "你好");
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("tools/call：非文本的内容块写出类型名；isError 成为失败的工具结果；JSON-RPC 错误带着错误码", async () => {
  const { client, pid } = await startFixture();
  try {
    const mixed = await client.callTool("mixed");
    assert.match(mixed.text, /a chart:/);
    assert.match(mixed.text, /\[image content/, "图片块不能悄悄丢掉");
    assert.match(mixed.text, /\[resource content/, "资源块不能悄悄丢掉");
    const failed = await client.callTool("fail");
    assert.equal(failed.isError, true);
    await assert.rejects(client.callToolOrThrow("fail"), (error: Error) => {
      assert.ok(error instanceof McpToolFailure, "isError: true 应成为失败的工具结果");
      assert.equal(error.message, "disk quota exceeded");
      return true;
    });
    await assert.rejects(client.callTool("no_such_tool"), (error: Error) => {
      assert.ok(error instanceof McpRemoteError, "JSON-RPC 错误应成为 McpRemoteError");
      assert.equal(error.code, -32602, "错误应带着服务器的错误码");
      return true;
    });
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("取消：调用方中止时发 notifications/cancelled，迟到的响应被忽略，连接继续可用", async () => {
  const { client, pid, errors } = await startFixture();
  try {
    const controller = new AbortController();
    const held = client.callTool("hold", undefined, { signal: controller.signal });
    // The call is on its way; aborting now must tell the server which request to stop.
    setImmediate(() => controller.abort());
    await assert.rejects(held, (error: Error) => error instanceof McpConnectionError && error.reason === "aborted");
    const seen = JSON.parse((await client.callTool("seen")).text) as {
      notifications: { method: string; params?: { requestId: number } }[];
    };
    const cancelled = seen.notifications.filter((n) => n.method === "notifications/cancelled");
    assert.equal(cancelled.length, 1, "中止应发出一条 notifications/cancelled");
    assert.equal(typeof cancelled[0]?.params?.requestId, "number", "取消通知应带请求 id");
    assert.equal(
      (await client.callTool("echo", { text: "still here" })).text,
      "still here",
      "迟到的响应之后连接仍可用",
    );
    assert.deepEqual(errors, [], "迟到的响应被安静地忽略");
    assert.equal(client.connection.inFlight, 0);
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("取消：请求超时也发 notifications/cancelled；initialize 不取消", async () => {
  const { client, pid } = await startFixture();
  try {
    await assert.rejects(client.callTool("hold", undefined, { timeoutMs: 1 }), (error: Error) => {
      assert.ok(error instanceof McpConnectionError && error.reason === "timeout", "超时应报 timeout 而不是 aborted");
      return true;
    });
    const seen = JSON.parse((await client.callTool("seen")).text) as { notifications: { method: string }[] };
    assert.equal(
      seen.notifications.filter((n) => n.method === "notifications/cancelled").length,
      1,
      "超时应发取消通知",
    );
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("ID 在一个连接里唯一：并发的调用各自拿到自己的结果", async () => {
  const { client, pid } = await startFixture();
  try {
    const texts = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool("echo", { text: `n${i}` })));
    assert.deepEqual(
      texts.map((result) => result.text),
      Array.from({ length: 20 }, (_, i) => `n${i}`),
    );
  } finally {
    await client.close();
  }
  await gone(pid);
});
