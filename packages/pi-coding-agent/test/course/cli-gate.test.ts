// tiny-pi's extensions and permission gate against a loopback Chat Completions server, without a
// terminal: write, edit and bash are denied unless --yes (the denial is the call's paired error
// result, and the turn goes on), protected paths are denied even with --yes, an untrusted
// extension's top-level code never runs without --trust-extensions, a trusted one (.mjs or .ts)
// registers its tools, and a before hook that throws denies the call. cli-trust.test.ts covers
// the questions asked on a terminal.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { symlink } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { put, withProject } from "../cli-support/project.js";
import { runCli } from "../cli-support/run-cli.js";

const model = (baseURL: string) => ["--base-url", baseURL, "--model", "m", "--no-session"];

// biome-ignore lint/suspicious/noExplicitAny: request bodies are read field by field
const toolResult = (request: any, id: string) =>
  request.messages.find(
    (message: { role: string; tool_call_id?: string }) => message.role === "tool" && message.tool_call_id === id,
  );

/** An extension that leaves `marker` when its top-level code runs. */
const markingExtension = (marker: string, body = "export default () => {};") =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "imported");\n${body}\n`;

test("tiny-pi 权限门（没有终端）：不加 --yes 时 bash 调用得到成对的 denied 错误结果，命令没有运行，这一轮继续；加 --yes 就运行", async () => {
  await withProject(async ({ workspace, env }) => {
    const server = await startChatServer([
      toolCallReply("call_1", "bash", { command: "touch marker" }),
      textReply(["没能运行"]),
      toolCallReply("call_2", "bash", { command: "touch marker" }),
      textReply(["运行了"]),
    ]);
    try {
      const denied = await runCli([...model(server.baseURL), "--tools", "bash", "建一个文件"], workspace, env);
      assert.equal(denied.code, 0, denied.stderr);
      const result = toolResult(server.requests[1], "call_1");
      assert.ok(result !== undefined, "调用有成对的结果");
      assert.match(result.content, /denied/);
      assert.match(result.content, /--yes/);
      assert.equal(existsSync(path.join(workspace, "marker")), false, "命令没有运行");
      assert.match(denied.stdout, /没能运行/, "这一轮继续到模型的回答");

      const allowed = await runCli(
        [...model(server.baseURL), "--tools", "bash", "--yes", "建一个文件"],
        workspace,
        env,
      );
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.doesNotMatch(toolResult(server.requests[3], "call_2").content, /denied/);
      assert.equal(existsSync(path.join(workspace, "marker")), true, "--yes：命令运行了");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi 权限门：受保护的路径（.git/、.tiny-pi/、node_modules/，按真实路径判断，可用 --protected-paths 改）即使有 --yes 也不能 write 或 edit", async () => {
  await withProject(async ({ workspace, env }) => {
    await put(path.join(workspace, "node_modules", "x", "index.js"), "original\n");
    // A link into node_modules/: the gate judges the real path, as the tools resolve it.
    await symlink("node_modules", path.join(workspace, "vendor"));
    const server = await startChatServer([
      toolCallReply("call_1", "write", { path: ".git/config", content: "[core]\n" }),
      toolCallReply("call_2", "edit", {
        path: "vendor/x/index.js",
        edits: [{ oldText: "original", newText: "changed" }],
      }),
      toolCallReply("call_3", "write", { path: "notes.txt", content: "ok\n" }),
      textReply(["好"]),
      toolCallReply("call_4", "write", { path: ".git/config", content: "[core]\n" }),
      textReply(["好"]),
    ]);
    try {
      const run = await runCli([...model(server.baseURL), "--tools", "write,edit", "--yes", "改文件"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(toolResult(server.requests[1], "call_1").content, /denied.*\.git\/.*protected/);
      assert.match(toolResult(server.requests[2], "call_2").content, /denied.*node_modules\/.*protected/);
      assert.equal(existsSync(path.join(workspace, ".git", "config")), false, ".git/config 没有写");
      assert.equal(
        (await import("node:fs")).readFileSync(path.join(workspace, "node_modules", "x", "index.js"), "utf8"),
        "original\n",
      );
      assert.doesNotMatch(toolResult(server.requests[3], "call_3").content, /denied/, "别的路径照常写");
      assert.equal(existsSync(path.join(workspace, "notes.txt")), true);

      const open = await runCli(
        [...model(server.baseURL), "--tools", "write", "--yes", "--protected-paths", "node_modules/", "改文件"],
        workspace,
        env,
      );
      assert.equal(open.code, 0, open.stderr);
      assert.doesNotMatch(toolResult(server.requests[5], "call_4").content, /denied/, "--protected-paths 换掉默认值");
      assert.equal(existsSync(path.join(workspace, ".git", "config")), true);
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi 扩展（没有终端）：不加 --trust-extensions 时扩展的顶层代码从不运行，一行说明；加上后 .mjs 与 .ts 扩展都加载，注册的工具交给模型", async () => {
  await withProject(async ({ workspace, env }) => {
    const marker = path.join(workspace, "imported");
    await put(path.join(workspace, ".tiny-pi", "extensions", "mark.mjs"), markingExtension(marker));
    await put(
      path.join(workspace, ".tiny-pi", "extensions", "shout.ts"),
      [
        "interface Api { registerTool(tool: object): void }",
        "export default function (api: Api): void {",
        '  api.registerTool({ name: "shout", description: "Shouts.", parameters: { type: "object" },',
        '    execute: async () => ({ content: [{ type: "text", text: "HELLO" }] }) });',
        "}",
      ].join("\n"),
    );
    const server = await startChatServer([textReply(["好"]), textReply(["好"])]);
    try {
      const untrusted = await runCli([...model(server.baseURL), "你好"], workspace, env);
      assert.equal(untrusted.code, 0, untrusted.stderr);
      assert.equal(existsSync(marker), false, "不信任的扩展没有被导入");
      const lines = untrusted.stderr.split("\n").filter((line) => line.includes("扩展"));
      assert.equal(lines.length, 1, untrusted.stderr);
      assert.match(
        lines[0] ?? "",
        /没有加载 2 个扩展：mark\.mjs、shout\.ts——不在终端里时，加 --trust-extensions 才加载它们/,
      );
      const names = (request: { tools?: { function: { name: string } }[] }) =>
        (request.tools ?? []).map((tool) => tool.function.name);
      assert.deepEqual(names(server.requests[0]), ["read"]);

      const trusted = await runCli([...model(server.baseURL), "--trust-extensions", "你好"], workspace, env);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal(existsSync(marker), true, "--trust-extensions：扩展运行了");
      assert.deepEqual(names(server.requests[1]), ["read", "shout"], ".ts 扩展注册的工具交给了模型");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi 扩展的 before 钩子抛出异常：调用被拒绝（成对的错误结果），命令没有运行，一行说明；抛出的扩展不挡住别的扩展", async () => {
  await withProject(async ({ workspace, env }) => {
    await put(
      path.join(workspace, ".tiny-pi", "extensions", "throws.mjs"),
      'export default (api) => api.before(() => { throw new Error("hook exploded"); });\n',
    );
    await put(path.join(workspace, ".tiny-pi", "extensions", "bad.mjs"), 'throw new Error("broken at import");\n');
    const server = await startChatServer([
      toolCallReply("call_1", "bash", { command: "touch marker" }),
      textReply(["好"]),
    ]);
    try {
      const run = await runCli(
        [...model(server.baseURL), "--tools", "bash", "--yes", "--trust-extensions", "建一个文件"],
        workspace,
        env,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /扩展 bad\.mjs 没有加载.*broken at import/, "导入时抛出的扩展是一行说明");
      assert.match(run.stderr, /已加载扩展：throws\.mjs/);
      const result = toolResult(server.requests[1], "call_1");
      assert.match(result.content, /denied|拒绝/);
      assert.equal(existsSync(path.join(workspace, "marker")), false, "命令没有运行");
      assert.match(run.stderr, /hook exploded/, "钩子的失败留下一行诊断");
    } finally {
      await server.close();
    }
  });
});
