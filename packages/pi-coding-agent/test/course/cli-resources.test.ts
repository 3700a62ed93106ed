// tiny-pi's resources against a loopback Chat Completions server, in a temp project: AGENTS.md from
// the tiny-pi home, the repository root and the workspace reach the request's system message in
// that order, followed by the skills catalogue without bodies; a skill's body reaches the model only
// once it is activated (by the model's activate_skill call, or /skill:NAME); /NAME args renders a
// prompt template; `tiny-pi resources` lists what was found and what shadowed what. Every folder is
// a temp one: TINY_PI_HOME stands for ~/.tiny-pi.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { put, withProject } from "../cli-support/project.js";
import { isOneLine, runCli, sessionFiles } from "../cli-support/run-cli.js";

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

const model = (baseURL: string) => ["--base-url", baseURL, "--model", "m", "--no-session"];

test("tiny-pi 的系统提示：全局、仓库根、工作区的 AGENTS.md 依次出现，然后是技能目录（名字、说明、位置，没有正文）；--no-context-files 去掉前者", async () => {
  await withProject(async ({ root, workspace, home, env }) => {
    await put(path.join(home, "AGENTS.md"), "GLOBAL-RULE: 回答要短\n");
    await put(path.join(root, "AGENTS.md"), "ROOT-RULE: 用 npm\n");
    await put(path.join(workspace, "CLAUDE.md"), "APP-CLAUDE-RULE\n");
    await put(path.join(workspace, "AGENTS.md"), "APP-RULE: 先读 README\n");
    await put(
      path.join(workspace, ".tiny-pi", "skills", "review", "SKILL.md"),
      skill("review", "检查一段代码的风格", "SKILL-BODY-SECRET 每一步都要说明理由"),
    );
    const server = await startChatServer([textReply(["好的"]), textReply(["好的"])]);
    try {
      const run = await runCli([...model(server.baseURL), "你好"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      const system = server.requests[0].messages[0];
      assert.equal(system.role, "system");
      const at = (text: string) => system.content.indexOf(text);
      for (const text of ["GLOBAL-RULE", "ROOT-RULE", "APP-RULE", "APP-CLAUDE-RULE", "review", "检查一段代码的风格"]) {
        assert.ok(at(text) !== -1, `系统提示里有 ${text}`);
      }
      assert.ok(
        at("GLOBAL-RULE") < at("ROOT-RULE") && at("ROOT-RULE") < at("APP-RULE"),
        "全局、仓库根、工作区依次出现",
      );
      assert.ok(at("APP-RULE") < at("APP-CLAUDE-RULE"), "同一个目录里 AGENTS.md 在 CLAUDE.md 之前");
      assert.ok(at("APP-CLAUDE-RULE") < at("检查一段代码的风格"), "技能目录在上下文文件之后");
      assert.ok(
        system.content.includes(path.join(workspace, ".tiny-pi", "skills", "review", "SKILL.md")),
        "技能的位置",
      );
      assert.equal(at("SKILL-BODY-SECRET"), -1, "没有激活的技能，正文不进系统提示");
      assert.ok(
        server.requests[0].tools.some(
          (tool: { function: { name: string } }) => tool.function.name === "activate_skill",
        ),
        "有技能时模型有 activate_skill 工具",
      );
      for (const message of server.requests[0].messages.slice(1)) {
        assert.ok(!JSON.stringify(message).includes("RULE"), "上下文只通过系统提示到达模型");
      }

      const bare = await runCli([...model(server.baseURL), "--no-context-files", "你好"], workspace, env);
      assert.equal(bare.code, 0, bare.stderr);
      const without = server.requests[1].messages[0].content;
      assert.ok(!without.includes("RULE"), "--no-context-files：没有 AGENTS.md / CLAUDE.md");
      assert.ok(without.includes("检查一段代码的风格"), "技能目录仍在");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi 技能按需：正文在模型调用 activate_skill 之后才出现在请求里，结果写出 SKILL.md 的真实路径；/skill:NAME 把正文和后面的话一起发出", async () => {
  await withProject(async ({ workspace, env }) => {
    const file = path.join(workspace, ".agents", "skills", "release", "SKILL.md");
    await put(file, skill("release", "发布新版本的步骤", "RELEASE-BODY 先跑 npm test"));
    const server = await startChatServer([
      toolCallReply("call_1", "activate_skill", { name: "release" }),
      textReply(["照做"]),
      textReply(["照做"]),
    ]);
    try {
      const run = await runCli([...model(server.baseURL), "发布吧"], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!JSON.stringify(server.requests[0]).includes("RELEASE-BODY"), "激活之前，请求里没有正文");
      const result = server.requests[1].messages.find((message: { role: string }) => message.role === "tool");
      assert.equal(result.tool_call_id, "call_1");
      assert.ok(result.content.includes("RELEASE-BODY 先跑 npm test"), "激活的结果是技能的正文");
      assert.ok(result.content.includes(file), "结果写出技能的位置");

      const typed = await runCli([...model(server.baseURL), "/skill:release", "现在就发布"], workspace, env);
      assert.equal(typed.code, 0, typed.stderr);
      const user = server.requests[2].messages.find((message: { role: string }) => message.role === "user");
      assert.ok(user.content.includes("RELEASE-BODY"), "/skill:release 发出正文");
      assert.ok(user.content.endsWith("现在就发布"), "后面的话跟在正文之后");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi 模板：/NAME 参数 把 .tiny-pi/prompts/NAME.md 渲染成一条用户消息；不存在的模板、坏的 SKILL.md 各是一行中文说明", async () => {
  await withProject(async ({ workspace, env }) => {
    await put(path.join(workspace, ".tiny-pi", "prompts", "fix.md"), "修好 $1，理由：$2。全部参数：$@，价格 $$5\n");
    await put(path.join(workspace, ".tiny-pi", "skills", "broken", "SKILL.md"), "没有前置元数据\n");
    const server = await startChatServer([textReply(["好"])]);
    try {
      const run = await runCli([...model(server.baseURL), "/fix", "a.ts", '"它 坏了"'], workspace, env);
      assert.equal(run.code, 0, run.stderr);
      const messages = server.requests[0].messages;
      assert.equal(messages.length, 2, "系统提示加一条用户消息");
      assert.equal(messages[1].content, "修好 a.ts，理由：它 坏了。全部参数：a.ts 它 坏了，价格 $5\n");
      assert.match(run.stderr, /跳过：.*broken.*SKILL\.md/, "坏的 SKILL.md 是一行说明，运行继续");

      const missing = await runCli(["--base-url", server.baseURL, "--model", "m", "/nosuch", "x"], workspace, env);
      assert.equal(missing.code, 2);
      assert.ok(isOneLine(missing.stderr.replace(/^（跳过：.*\n/m, "")), missing.stderr);
      assert.match(missing.stderr, /没有名为 "nosuch" 的提示模板（\.tiny-pi\/prompts\/nosuch\.md）：可用的模板有 fix/);
      assert.equal(server.requests.length, 1, "不存在的模板不发请求");
      assert.deepEqual(await sessionFiles(workspace), [], "也不写会话文件");
    } finally {
      await server.close();
    }
  });
});

test("tiny-pi resources：列出根、上下文文件、技能、模板、扩展及其信任，以及谁遮蔽了谁；不读技能正文，不导入扩展", async () => {
  await withProject(async ({ root, workspace, home, env }) => {
    await put(path.join(root, "AGENTS.md"), "root\n");
    await put(path.join(home, "skills", "review", "SKILL.md"), skill("review", "全局的版本", "GLOBAL-BODY"));
    await put(
      path.join(workspace, ".tiny-pi", "skills", "review", "SKILL.md"),
      skill("review", "工作区的版本", "BODY"),
    );
    await put(path.join(workspace, ".tiny-pi", "prompts", "fix.md"), "修好 $1\n");
    const marker = path.join(workspace, "imported");
    await put(
      path.join(workspace, ".tiny-pi", "extensions", "mark.mjs"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default () => {};\n`,
    );
    const run = await runCli(["resources"], workspace, env);
    assert.equal(run.code, 0, run.stderr);
    const out = run.stdout;
    const lineOf = (text: string) => out.split("\n").find((line) => line.includes(text)) ?? "";
    assert.match(lineOf("  全局"), new RegExp(home.replaceAll("\\", "\\\\")));
    assert.ok(out.indexOf(`上级目录  ${root}`) < out.indexOf(`工作区  ${workspace}`), "根按优先级列出");
    assert.ok(lineOf(path.join(root, "AGENTS.md")).includes("上级目录"), "上下文文件和它的来源");
    assert.ok(lineOf("review —").includes("工作区的版本"), "工作区的技能胜出");
    assert.match(
      lineOf("被 "),
      new RegExp(`skill review：${path.join(home, "skills", "review", "SKILL.md")}（全局） 被 .*（工作区） 遮蔽`),
    );
    assert.ok(lineOf("/fix").includes("prompts/fix.md"), "模板");
    assert.ok(lineOf("mark.mjs").includes("未信任"), "扩展的信任");
    assert.ok(!out.includes("BODY"), "不读技能正文");
    assert.equal(existsSync(marker), false, "不导入扩展");
  });
});
