// The stdio transport and the faults a real server can have; each ends in one line and leaves no
// process behind (checked by pid). Close's SIGTERM and SIGKILL are chapter 17's focused tests
// (17-mcp.test.ts, like the rest of the client's rules).
import assert from "node:assert/strict";
import { test } from "node:test";
import { McpClient, McpConnectionError } from "../src/mcp/index.js";
import { fixtureTransport, gone, startFixture } from "./mcp-fixture/start.js";

const oneLine = (message: string) => assert.doesNotMatch(message, /\n/, `应只有一行：${message}`);

test("stdio：半行等待剩下的部分；一行垃圾引发错误事件，连接继续", async () => {
  const { client, pid, errors } = await startFixture();
  try {
    assert.equal((await client.callTool("halves")).text, "joined", "分两次写出的一行应拼起来");
    assert.equal((await client.callTool("garbage")).text, "after garbage", "垃圾行之后的响应照常到达");
    assert.equal(errors.length, 1, "垃圾行应引发一个错误事件");
    assert.match(errors[0]?.message ?? "", /not JSON/);
  } finally {
    await client.close();
  }
  await gone(pid);
});

test("stdio：stderr 是服务器的日志，不当作消息", async () => {
  const logs: string[] = [];
  const { client, pid, errors } = await startFixture([], {}, { onLog: (line) => logs.push(line) });
  await client.close();
  await gone(pid);
  assert.ok(logs.includes("fixture: ready"), `stderr 的每一行应交给日志：${JSON.stringify(logs)}`);
  assert.deepEqual(errors, [], "stderr 不会引发错误事件");
});

test("故障：从不回答 initialize 的服务器在启动时限内失败，一行，进程不留", async () => {
  const transport = fixtureTransport(["--silent-init"]);
  await assert.rejects(
    McpClient.connect(transport, { startupTimeoutMs: 500, lastLogLine: () => transport.lastLogLine }),
    (error: Error) => {
      assert.ok(error instanceof McpConnectionError && error.reason === "timeout", `应是启动超时：${error.message}`);
      assert.match(error.message, /initialize timed out/);
      oneLine(error.message);
      return true;
    },
  );
  await gone(transport.pid ?? 0);
});

test("故障：启动就退出的服务器，一行里带着它 stderr 的最后一行", async () => {
  const transport = fixtureTransport(["--fail-start"]);
  await assert.rejects(
    McpClient.connect(transport, { startupTimeoutMs: 60_000, lastLogLine: () => transport.lastLogLine }),
    (error: Error) => {
      assert.match(error.message, /missing FIXTURE_TOKEN/, "应带着 stderr 的最后一行");
      oneLine(error.message);
      return true;
    },
  );
  await gone(transport.pid ?? 0);
});

test("故障：调用中途退出的服务器让在途请求失败，一行", async () => {
  const { client, pid } = await startFixture();
  const pendingEcho = client.callTool("hold");
  await assert.rejects(client.callTool("exit"), (error: Error) => {
    assert.ok(error instanceof McpConnectionError && error.reason === "closed");
    assert.match(error.message, /code 3/, "应写出退出码");
    assert.match(error.message, /crashing mid-call/, "应带着 stderr 的最后一行");
    oneLine(error.message);
    return true;
  });
  await assert.rejects(pendingEcho, /connection closed/, "关闭的传输拒绝所有在途请求");
  await assert.rejects(client.callTool("echo"), /connection closed/, "关闭之后的请求立即失败");
  await client.close();
  await gone(pid);
});

test("故障：一行 50 MB 的服务器被关闭，一行，进程不留", async () => {
  const { client, pid, errors } = await startFixture();
  await assert.rejects(client.callTool("huge"), (error: Error) => {
    assert.match(error.message, /longer than 16 MiB/);
    oneLine(error.message);
    return true;
  });
  assert.ok(errors.some((error) => /longer than 16 MiB/.test(error.message)));
  await client.close();
  await gone(pid);
});

test("故障：比服务器活得久的子进程随整棵进程树一起结束", async () => {
  const { client, pid } = await startFixture(["--child"]);
  const grandchild = Number((await client.callTool("spawn")).text);
  assert.ok(grandchild > 0);
  await client.close();
  await gone(pid);
  await gone(grandchild);
});
