// tiny-pi on a pseudo-terminal: the first run asks whether to trust a workspace's extension, the
// answer is recorded by real path and content hash in the tiny-pi home (a later run without a
// terminal loads it unasked), and a changed extension is asked about again. The permission gate
// shows each write/edit/bash call (the command, or the path and diff preview) and asks
// y / n / always for this tool.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { put, withProject } from "../cli-support/project.js";
import { PROMPT, ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { runCli } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

const skip = ptyUnavailable();
const model = (baseURL: string) => ["--base-url", baseURL, "--model", "m", "--no-session"];
const QUESTION = "信任扩展 .tiny-pi/extensions/mark.mjs 吗？";

test("tiny-pi 扩展的信任（终端）：第一次运行时询问，答 y 记下真实路径与内容哈希，之后不问也加载；扩展改动后再问，答 n 不导入", {
  skip,
  timeout: HANG_GUARD_MS,
}, async (t) => {
  await withProject(async ({ workspace, home, env }) => {
    const marker = path.join(workspace, "imported");
    const extension = path.join(workspace, ".tiny-pi", "extensions", "mark.mjs");
    const source = (version: string) =>
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "${version}");\nexport default () => {};\n`;
    await put(extension, source("v1"));
    const server = await startChatServer([textReply(["好"]), textReply(["好"]), textReply(["好"]), textReply(["好"])]);
    try {
      const first = startOnPty([...model(server.baseURL), "你好"], workspace, env);
      t.after(() => first.stop());
      await first.waitFor(QUESTION);
      await first.waitFor("(y / n)");
      assert.equal(existsSync(marker), false, "回答之前扩展没有被导入");
      first.type("y\r");
      assert.equal(await first.exited, 0, first.screen());
      assert.equal(await readFile(marker, "utf8"), "v1", "答 y：扩展运行了");
      const record = JSON.parse(await readFile(path.join(home, "trusted-extensions.json"), "utf8"));
      assert.match(record[extension]?.sha256 ?? "", /^[0-9a-f]{64}$/, "信任按真实路径记下内容哈希");

      await rm(marker);
      const again = await runCli([...model(server.baseURL), "你好"], workspace, env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(existsSync(marker), true, "记下的信任：没有终端也加载");
      assert.doesNotMatch(again.stderr, /没有加载/);

      await rm(marker);
      await put(extension, source("v2"));
      const changed = await runCli([...model(server.baseURL), "你好"], workspace, env);
      assert.equal(existsSync(marker), false, "改过的扩展不再算信任");
      assert.match(changed.stderr, /没有加载 1 个扩展：mark\.mjs/);

      const asked = startOnPty([...model(server.baseURL), "你好"], workspace, env);
      t.after(() => asked.stop());
      await asked.waitFor(QUESTION);
      asked.type("n\r");
      assert.equal(await asked.exited, 0, asked.screen());
      assert.equal(existsSync(marker), false, "答 n：扩展没有被导入");
      assert.match(asked.screen(), /没有加载扩展：mark\.mjs——你没有信任它们/);
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi 权限门（终端）：bash 显示命令、write 显示路径与 diff 预览再问 y / n / always；n 拒绝，always 之后同一个工具不再问", {
  skip,
  timeout: HANG_GUARD_MS,
}, async (t) => {
  await withProject(async ({ workspace, env }) => {
    await put(path.join(workspace, "notes.txt"), "第一行\n旧的第二行\n");
    const server = await startChatServer([
      toolCallReply("call_1", "bash", { command: "touch marker" }),
      toolCallReply("call_2", "write", { path: "notes.txt", content: "第一行\n新的第二行\n" }),
      toolCallReply("call_3", "write", { path: "more.txt", content: "更多\n" }),
      textReply(["写好了"]),
    ]);
    try {
      const pty = startOnPty([...model(server.baseURL), "--tools", "bash,write", "干活"], workspace, env);
      t.after(() => pty.stop());
      await pty.waitFor("bash 要执行：touch marker");
      await pty.waitFor("允许吗？(y / n / always for this tool)");
      pty.type("n\r");
      await pty.waitFor("write 要修改 notes.txt");
      await pty.waitFor("-旧的第二行");
      await pty.waitFor("+新的第二行");
      await pty.waitFor("允许吗？");
      pty.type("always\r");
      assert.equal(await pty.exited, 0, pty.screen());
      assert.equal(existsSync(path.join(workspace, "marker")), false, "答 n：命令没有运行");
      assert.match(
        server.requests[1].messages.find((message: { tool_call_id?: string }) => message.tool_call_id === "call_1")
          .content,
        /denied: the user answered no/,
      );
      assert.equal(await readFile(path.join(workspace, "notes.txt"), "utf8"), "第一行\n新的第二行\n");
      assert.equal(await readFile(path.join(workspace, "more.txt"), "utf8"), "更多\n", "always：第二次 write 不再问");
      assert.equal(pty.screen().split("允许吗？").length - 1, 2, "只问了两次");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi REPL 里的技能、模板与权限门：/skill:NAME 发出技能正文，/NAME 参数 发出渲染后的模板，不存在的模板一行说明、REPL 继续；权限门的问题由下一行回答，不转入这一轮", {
  skip,
  timeout: HANG_GUARD_MS,
}, async (t) => {
  await withProject(async ({ workspace, env }) => {
    await put(
      path.join(workspace, ".tiny-pi", "skills", "tidy", "SKILL.md"),
      "---\nname: tidy\ndescription: 整理文件\n---\nTIDY-BODY 先列出文件\n",
    );
    await put(path.join(workspace, ".tiny-pi", "prompts", "say.md"), "请说 $1\n");
    const server = await startChatServer([
      textReply(["整理好了"]),
      toolCallReply("call_1", "bash", { command: "touch marker" }),
      textReply(["说完了"]),
    ]);
    try {
      const pty = startOnPty(
        ["--base-url", server.baseURL, "--model", "m", "--tools", "bash", "--no-session"],
        workspace,
        env,
      );
      t.after(() => pty.stop());
      await pty.waitFor(PROMPT);
      await pty.ask("/skill:tidy 现在整理", "整理好了");
      const first = server.requests[0].messages.at(-1);
      assert.ok(first.content.includes("TIDY-BODY 先列出文件") && first.content.endsWith("现在整理"), first.content);
      await pty.ask("/nosuch 你好", '没有名为 "nosuch" 的提示模板');
      assert.equal(server.requests.length, 1, "不存在的模板不发请求");
      pty.type("/say 你好\r");
      await pty.waitFor("bash 要执行：touch marker");
      await pty.waitFor("允许吗？");
      pty.type("y\r");
      await pty.waitFor("说完了");
      await pty.waitFor(PROMPT);
      assert.equal(await pty.leave(), 0, pty.screen());
      assert.equal(server.requests[1].messages.at(-1).content, "请说 你好\n", "模板渲染成一条用户消息");
      assert.equal(existsSync(path.join(workspace, "marker")), true, "答 y：命令运行了");
      assert.doesNotMatch(pty.screen(), /已转入正在运行的这一轮：y/, "回答没有转入这一轮");
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });
});
