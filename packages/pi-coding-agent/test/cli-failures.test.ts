// Runs that fail: the server is not there, refuses the key, or does not know the model. Each is
// one line naming the fix, exit 1, no stack, and no session file (the model never answered).
import assert from "node:assert/strict";
import { test } from "node:test";
import { closedPort, errorReply, startChatServer, textReply, toolCallReply } from "./cli-support/chat-server.js";
import { isOneLine, runCli, sessionFiles, sessionMessages, withWorkspace } from "./cli-support/run-cli.js";

test("tiny-pi 连不上服务器（127.0.0.1 上关闭的端口）：一行说明先启动服务或检查 --base-url，退出码 1，不写会话", async () => {
  const port = await closedPort();
  await withWorkspace(async (workspace) => {
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const result = await runCli(["--base-url", baseURL, "--model", "m", "你好"], workspace);
    assert.equal(result.code, 1);
    const [line = "", ...rest] = result.stderr.split("\n").filter((text) => text !== "");
    assert.deepEqual(rest, [], `只有一行：${result.stderr}`);
    assert.match(
      line,
      new RegExp(
        `^连不上 ${baseURL.replace(/\./g, "\\.")}（connection error: .*）：请先启动模型服务，或检查 --base-url。$`,
      ),
    );
    assert.match(result.stdout, /^— error · 1 步 · tokens —$/m, "最后一行仍给出 reason 和 steps");
    assert.deepEqual(await sessionFiles(workspace), []);
  });
});

test("tiny-pi 密钥被拒（401）：一行说明用 --api-key 或 OPENAI_API_KEY，退出码 1，不写会话", async () => {
  const server = await startChatServer([errorReply(401, "Incorrect API key provided: sk-bad.", "invalid_api_key")]);
  try {
    await withWorkspace(async (workspace) => {
      const args = ["--base-url", server.baseURL, "--model", "gpt-4o-mini", "--api-key", "sk-bad", "你好"];
      const result = await runCli(args, workspace);
      assert.equal(result.code, 1);
      assert.ok(isOneLine(result.stderr), result.stderr);
      assert.match(
        result.stderr,
        /^模型服务拒绝了密钥（401 Incorrect API key provided.*）：请用 --api-key 或环境变量 OPENAI_API_KEY/,
      );
      assert.equal(server.requests.length, 1, "401 不重试");
      assert.deepEqual(server.authorizations, ["Bearer sk-bad"], "--api-key 作为 Bearer 发送");
      assert.deepEqual(await sessionFiles(workspace), []);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 的服务器 200 却回了 HTML：一行说出收到的是 text/html 并让检查 --base-url，不建议再试一次，退出码 1", async () => {
  const server = await startChatServer([
    (response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><title>Router login</title></html>");
    },
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const result = await runCli(["--base-url", server.baseURL, "--model", "m", "你好"], workspace);
      assert.equal(result.code, 1);
      assert.ok(isOneLine(result.stderr), result.stderr);
      assert.match(
        result.stderr,
        /^模型服务的回答不是事件流（200 not an event stream: the server answered with text\/html, not text\/event-stream \("<html><title>Router login<\/title><\/html>"\); check the base URL）：检查 --base-url/,
      );
      assert.doesNotMatch(result.stderr, /再试一次/);
      assert.equal(server.requests.length, 1, "不重试");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 服务器没有这个模型（404）：一行说明检查 --model 与 --base-url，退出码 1", async () => {
  const server = await startChatServer([
    errorReply(404, 'model "llama9" not found, try pulling it first', "model_not_found"),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const result = await runCli(["--base-url", server.baseURL, "--model", "llama9", "你好"], workspace);
      assert.equal(result.code, 1);
      assert.ok(isOneLine(result.stderr), result.stderr);
      assert.match(result.stderr, /^模型服务上找不到这个模型或路径（404 .*llama9.*）：检查 --model 的名字/);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 达到 --max-steps：工具结果保留在会话里，一行说明调大 --max-steps，退出码 1", async () => {
  const server = await startChatServer([
    toolCallReply("call_1", "read", { path: "README.md" }),
    textReply(["不会请求"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const args = ["--base-url", server.baseURL, "--model", "m", "--max-steps", "1", "读 README"];
      const result = await runCli(args, workspace);
      assert.equal(result.code, 1);
      assert.equal(server.requests.length, 1);
      assert.match(result.stdout, /^— maxSteps · 1 步/m);
      assert.match(result.stderr, /^达到上限：已请求模型 1 次仍未结束；需要更多步时用 --max-steps 调大上限。$/m);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      const roles = (await sessionMessages(file)).map((message) => message.role);
      assert.deepEqual(roles, ["user", "assistant", "toolResult"]);
    });
  } finally {
    await server.close();
  }
});
