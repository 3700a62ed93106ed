// The Runtime's scaffolding beyond chapter 13's labs: the loop engine tiny-pi uses for a loop no
// Agent drives (--loop), the count of steered lines no turn took (the REPL's note after Ctrl-C),
// and the order of wireRuntime's two hook layers (an extension denies before the built-in gate asks).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { ToolRegistry, text } from "@pi/core";
import { loopEngine } from "../src/runtime/engine.js";
import { openRuntime } from "../src/runtime/open.js";
import { wireRuntime } from "../src/runtime/wiring.js";
import { asks, partsOf, says, scripted, sent, sessionFile, withDir } from "./runtime-fixture.js";
import { answer, user } from "./session-fixture.js";

const TEST_TIMEOUT_MS = 5_000;

test("loopEngine：恢复的会话上一轮一轮地跑，条目与请求和 Agent 的一样，它不能 steer", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir, [
      user("0000000a", null, "旧问题"),
      answer("0000000b", "0000000a", "旧回答"),
    ]);
    const model = scripted(asks("c1", "look", { path: "a" }), says("一"), says("二"));
    const runtime = openRuntime({ session, leaf: "0000000b", model, parts: partsOf(), engine: loopEngine() });
    await runtime.prompt("第一个");
    assert.equal(runtime.steer("插话"), false, "没有提示在运行时不能 steer");
    await runtime.prompt("第二个");
    assert.deepEqual(
      sent(model, 2),
      [
        "旧问题",
        [text("旧回答")],
        "第一个",
        [text("我先看一下。"), { type: "toolCall", id: "c1", name: "look", arguments: { path: "a" } }],
        [text("看到了 a")],
        [text("一")],
        "第二个",
      ],
      "第二个提示的请求带着恢复的历史和第一个提示的每条消息，各一次",
    );
    assert.equal(session.entries().length, 2 + 4 + 2, "每条消息一个条目");
    assert.equal(runtime.queued(), 0, "loop 没有排队的行");
  });
});

test("queued()：中止时还没被取走的 steer 行留给下一个提示", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir);
    let runtime: ReturnType<typeof openRuntime> | undefined;
    const tools = new ToolRegistry();
    tools.register({
      name: "look",
      description: "Looks.",
      parameters: { type: "object" },
      execute: async () => {
        runtime?.steer("顺便看看 b");
        runtime?.abort();
        return { content: [text("看到了")] };
      },
    });
    runtime = openRuntime({ session, model: scripted(asks("c1", "look", {}), says("好")), parts: partsOf(tools) });
    const result = await runtime.prompt("看看 a");
    assert.equal(result.reason, "aborted", "中止结束这个提示");
    assert.equal(runtime.queued(), 1, "steer 进来却没被取走的一行还在排队");
  });
});

test("wireRuntime：扩展的 before 钩子先于内置扩展：扩展拒绝的调用不再问内置的权限门", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const file = path.join(dir, "guard.mjs");
    await writeFile(
      file,
      'export default (api) => api.before((call) => (call.arguments.path === "secret" ? { allow: false, reason: "扩展说不" } : undefined));\n',
    );
    const asked: unknown[] = [];
    const parts = await wireRuntime({
      tools: partsOf().tools,
      systemPrompt: "基础",
      extensions: {
        files: [{ kind: "extension", name: "guard.mjs", root: { kind: "workspace", dir }, path: file }],
        trusted: () => true,
        builtIn: [
          (api) =>
            api.before((call) => {
              asked.push(call.arguments.path);
              return call.arguments.path === "b" ? { allow: false, reason: "权限门说不" } : undefined;
            }),
        ],
      },
    });
    assert.deepEqual(parts.extensions.loaded, [file], "扩展已加载");
    const look = parts.tools.get("look");
    assert.ok(look, "两层钩子之后工具还在");
    await assert.rejects(look.execute({ path: "secret" }, {}), /扩展说不/, "扩展拒绝");
    await assert.rejects(look.execute({ path: "b" }, {}), /权限门说不/, "扩展放行的，内置的权限门再决定");
    assert.deepEqual(await look.execute({ path: "a" }, {}), { content: [text("看到了 a")] }, "两层都放行才运行工具");
    assert.deepEqual(asked, ["b", "a"], "扩展拒绝的调用没有问内置的权限门");
    assert.equal(parts.systemPrompt, "基础", "没有资源时系统提示就是基础提示");
  });
});
