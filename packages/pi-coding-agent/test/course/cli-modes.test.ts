// tiny-pi's presentations of one run (chapter 13's modes): the human view by default, -p / --print
// with the final answer only, --mode json (and its old name --json) with one event per line. An
// unknown --mode is refused in one line before anything runs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorReply, startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { isOneLine, runCli, sessionFiles, sessionMessages, withWorkspace } from "../cli-support/run-cli.js";

test("tiny-pi -p / --print：标准输出只有最后一条回答的文字（不显示工具行和中间的话），会话照常记录", async () => {
  for (const flag of ["-p", "--print"]) {
    const server = await startChatServer([
      toolCallReply("call_1", "read", { path: "README.md" }),
      textReply(["项目名", "是 tiny-pi。"]),
    ]);
    try {
      await withWorkspace(async (workspace) => {
        const result = await runCli(["--base-url", server.baseURL, "--model", "m", flag, "读 README"], workspace);
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout, "项目名是 tiny-pi。\n", `${flag}：只有最终回答`);
        assert.equal(server.requests.length, 2, "仍然是完整的一轮：先调用 read，再回答");
        const [file] = await sessionFiles(workspace);
        assert.ok(file !== undefined, "会话照常写下");
        assert.deepEqual(
          (await sessionMessages(file)).map((message) => message.role),
          ["user", "assistant", "toolResult", "assistant"],
        );
      });
    } finally {
      await server.close();
    }
  }
});

test("tiny-pi -p 用内置脚本模型：标准输出只有最终回答那一行", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(["-p", "--no-session"], workspace);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "项目名是 tiny-pi。\n");
  });
});

test("tiny-pi -p 这一轮失败（401）：标准输出为空，标准错误一行说明，退出码 1", async () => {
  const server = await startChatServer([errorReply(401, "Incorrect API key provided", "invalid_api_key")]);
  try {
    await withWorkspace(async (workspace) => {
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "-p", "--no-session", "hi"],
        workspace,
      );
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, "", "失败时没有回答可打印");
      assert.ok(isOneLine(result.stderr), result.stderr);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi --mode json 与 --json：标准输出每行一个事件，两种写法逐行相同（时间戳除外）", async () => {
  const outlines: string[][] = [];
  for (const flags of [["--mode", "json"], ["--json"]]) {
    const server = await startChatServer([
      toolCallReply("call_1", "read", { path: "README.md" }),
      textReply(["项目名是 tiny-pi。"]),
    ]);
    try {
      await withWorkspace(async (workspace) => {
        const result = await runCli(["--base-url", server.baseURL, "--model", "m", ...flags, "读 README"], workspace);
        assert.equal(result.code, 0, result.stderr);
        const lines = result.stdout.trimEnd().split("\n");
        const events = lines.map((line) => JSON.parse(line));
        assert.deepEqual(
          events.find((event) => event.type === "turn_end"),
          { type: "turn_end", reason: "stop", steps: 2 },
          flags.join(" "),
        );
        assert.equal(events.at(-1).type, "agent_end", "最后一行是 agent_end");
        assert.equal(result.stderr.includes("项目名"), false, "回答只在 JSON 里");
        outlines.push(events.map((event) => (event.type === "model_event" ? event.event.type : event.type)));
      });
    } finally {
      await server.close();
    }
  }
  assert.deepEqual(outlines[0], outlines[1], "--json 是 --mode json 的别名");
});

test("tiny-pi --mode 写了未知的模式：一行说明可选的模式，退出码 2，不请求模型、不写会话", async () => {
  const server = await startChatServer([textReply(["不该有这次请求"])]);
  try {
    await withWorkspace(async (workspace) => {
      const result = await runCli(["--base-url", server.baseURL, "--model", "m", "--mode", "rpc", "hi"], workspace);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, "");
      assert.ok(isOneLine(result.stderr), result.stderr);
      assert.match(result.stderr, /^--mode 只接受 text、print 或 json（收到 "rpc"）/);
      assert.equal(server.requests.length, 0, "什么也没运行");
      assert.deepEqual(await sessionFiles(workspace), []);
    });
  } finally {
    await server.close();
  }
});
