// Pi reads every assistant entry's api, provider, model and usage (its footer adds usage.cost.total):
// tiny-pi's session file carries them, in Pi's shape, with the counts the server reported.
import assert from "node:assert/strict";
import { test } from "node:test";
import { withPiFields } from "../src/host/pi-fields.js";
import { messageEntry } from "../src/session/entries.js";
import { startChatServer, textReply, toolCallReply } from "./cli-support/chat-server.js";
import { runCli, sessionFiles, sessionMessages, withWorkspace } from "./cli-support/run-cli.js";

const zeroCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

test("Pi 的字段：tiny-pi 写的每条 assistant 都带 api、provider、model 与 Pi 形状的 usage（服务器报的 token，其余为 0）", async () => {
  const server = await startChatServer([
    toolCallReply("call_readme", "read", { path: "README.md" }, { input: 31, output: 12 }),
    textReply(["项目名是 tiny-pi。"], { input: 58, output: 7 }),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "local-model", "-p", "项目名？"],
        workspace,
      );
      assert.equal(result.code, 0, result.stderr);
      const [file] = await sessionFiles(workspace);
      const assistants = (await sessionMessages(file as string)).filter((message) => message.role === "assistant");
      assert.deepEqual(
        assistants.map(({ api, provider, model, usage }) => ({ api, provider, model, usage })),
        [
          {
            api: "openai-completions",
            provider: "openai-compatible",
            model: "local-model",
            usage: { input: 31, output: 12, cacheRead: 0, cacheWrite: 0, totalTokens: 43, cost: zeroCost },
          },
          {
            api: "openai-completions",
            provider: "openai-compatible",
            model: "local-model",
            usage: { input: 58, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 65, cost: zeroCost },
          },
        ],
        "每条 assistant 都有 Pi 的四个字段：Pi 的页脚读 usage.cost.total，缺了它 Pi 的交互模式崩溃",
      );
    });
  } finally {
    await server.close();
  }
});

test("Pi 的字段：没有 usage 的回答（内置脚本模型）得到全 0 的 usage；Pi 自己写的字段原样保留；别的条目不变", () => {
  const identity = { api: "scripted", provider: "tiny-pi", model: "readme-round-trip" };
  const bare = messageEntry({ role: "assistant", content: [], stopReason: "stop", timestamp: 1 }, null, "0000000a");
  assert.deepEqual((withPiFields(bare, identity) as { message: object }).message, {
    role: "assistant",
    content: [],
    stopReason: "stop",
    timestamp: 1,
    ...identity,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: zeroCost },
  });
  const piUsage = {
    input: 5,
    output: 2,
    cacheRead: 3,
    cacheWrite: 1,
    totalTokens: 11,
    cost: { ...zeroCost, total: 0.5 },
  };
  const fromPi = messageEntry(
    { role: "assistant", content: [], stopReason: "stop", timestamp: 1, usage: piUsage } as never,
    null,
    "0000000b",
  );
  (fromPi.message as unknown as Record<string, unknown>).model = "gpt-x";
  const kept = withPiFields(fromPi, identity) as unknown as { message: Record<string, unknown> };
  assert.deepEqual([kept.message.model, kept.message.usage], ["gpt-x", piUsage], "Pi 写的 model 与 usage 不被覆盖");
  const user = messageEntry({ role: "user", content: "问", timestamp: 1 }, null, "0000000c");
  assert.equal(withPiFields(user, identity), user, "user 条目原样通过");
});
