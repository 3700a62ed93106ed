// tiny-pi's tool exposure (chapter 15) against a loopback Chat Completions server, in a temp project:
// an extension registers 100 tools and deploy_site; more than the threshold, so they are deferred.
// The first request declares only the workspace tool and tool_search; after the model's search the
// next request declares the tool it found; the session file records both changes as Pi custom
// entries, and --resume declares the found tool again from the first request on.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { put, withProject } from "../cli-support/project.js";
import { runCli, sessionFiles } from "../cli-support/run-cli.js";

const EXTENSION = `export default (api) => {
  for (let index = 0; index < 100; index += 1) {
    api.registerTool({
      name: "widget_" + index,
      description: "Handles widget number " + index + " in the inventory.",
      parameters: { type: "object", properties: { sku: { type: "string" } } },
      execute: async () => ({ content: [{ type: "text", text: "widget " + index }] }),
    });
  }
  api.registerTool({
    name: "deploy_site",
    description: "Deploy the website to production.",
    parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
    execute: async (args) => ({ content: [{ type: "text", text: "deployed to " + args.target }] }),
  });
};
`;

// biome-ignore lint/suspicious/noExplicitAny: request bodies are read field by field
const declared = (request: any): string[] =>
  request.tools.map((tool: { function: { name: string } }) => tool.function.name);

test("tiny-pi 的延迟工具：100 个扩展工具只声明 read 与 tool_search；搜索之后下一次请求声明找到的工具，会话记下变化，--resume 恢复它", async () => {
  await withProject(async ({ workspace, env }) => {
    await put(path.join(workspace, ".tiny-pi", "extensions", "many.mjs"), EXTENSION);
    const server = await startChatServer([
      toolCallReply("call_1", "deploy_site", { target: "prod" }),
      toolCallReply("call_2", "tool_search", { query: "deploy website" }),
      toolCallReply("call_3", "deploy_site", { target: "prod" }),
      textReply(["部署好了"]),
      toolCallReply("call_4", "deploy_site", { target: "staging" }),
      textReply(["又部署了"]),
    ]);
    try {
      const args = ["--base-url", server.baseURL, "--model", "m", "--trust-extensions"];
      const run = await runCli([...args, "把网站部署上去"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /工具：声明 2 个，延迟 101 个/, "开始时说出声明与延迟的工具数");
      assert.deepEqual(
        declared(server.requests[0]),
        ["read", "tool_search"],
        "第一次请求只声明直接的工具与 tool_search",
      );
      const refusal = server.requests[1].messages.at(-1);
      assert.equal(refusal.role, "tool");
      assert.match(refusal.content, /deploy_site.*tool_search/, "搜索之前调用延迟的工具：配对的拒绝，叫模型先搜索");
      assert.equal(declared(server.requests[2]).includes("deploy_site"), true, "搜索之后的下一次请求声明 deploy_site");
      assert.equal(declared(server.requests[2]).length, 3, "只多了找到的那一个");
      assert.match(server.requests[3].messages.at(-1).content, /deployed to prod/, "搜索之后的调用成功");

      const [file] = await sessionFiles(workspace);
      assert.ok(file, "写了会话文件");
      const custom = (await readFile(file, "utf8"))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.type === "custom" && entry.customType === "pi-course/tool-state");
      assert.deepEqual(
        custom.map((entry) => [
          entry.customType,
          entry.data.added.map((tool: { name: string }) => tool.name),
          entry.data.removed,
        ]),
        [
          ["pi-course/tool-state", ["read", "tool_search"], []],
          ["pi-course/tool-state", ["deploy_site"], []],
        ],
        "会话文件记下第一次声明的集合与搜索之后的变化，都是 Pi 的 custom 条目",
      );

      const resumed = await runCli([...args, "--resume", file, "再部署到 staging"], workspace, env);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(
        declared(server.requests[4]).includes("deploy_site"),
        true,
        "--resume：第一次请求就声明找到过的工具",
      );
      assert.match(server.requests[5].messages.at(-1).content, /deployed to staging/, "恢复后直接调用成功");
      const after = (await readFile(file, "utf8"))
        .split("\n")
        .filter((line) => line.includes('"customType":"pi-course/tool-state"'));
      assert.equal(after.length, 2, "恢复的集合没变：不再记新的变化");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi --tools read,code 与延迟的工具：脚本不用 tool_search 就调用 deploy_site，它仍不向模型声明", async () => {
  await withProject(async ({ workspace, env }) => {
    await put(path.join(workspace, ".tiny-pi", "extensions", "many.mjs"), EXTENSION);
    const server = await startChatServer([
      toolCallReply("call_1", "code", { code: 'return await tools.deploy_site({ target: "prod" })' }),
      textReply(["部署好了"]),
    ]);
    try {
      const args = ["--base-url", server.baseURL, "--model", "m", "--trust-extensions", "--tools", "read,code"];
      const run = await runCli([...args, "把网站部署上去"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(
        declared(server.requests[0]),
        ["read", "code", "tool_search"],
        "延迟的工具不向模型声明：请求里只有直接的工具与 tool_search",
      );
      const result = server.requests[1].messages.at(-1);
      assert.match(result.content, /deployed to prod/, "脚本够得着延迟的工具：它的调用运行并成功");
      assert.deepEqual(
        declared(server.requests[1]),
        ["read", "code", "tool_search"],
        "从脚本调用不激活延迟的工具，也不移动模型的作用域",
      );
    } finally {
      await server.close();
    }
  });
});
