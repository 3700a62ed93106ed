// The chapter's README round trip through tiny-pi, spawned as a real child: against a loopback
// Chat Completions server, and offline on the embedded scripted model with the real read tool.
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallReply } from "./cli-support/chat-server.js";
import { cliEnv, repoRoot, runCli, sessionFiles, withWorkspace } from "./cli-support/run-cli.js";

const question = "请读取 README.md，并告诉我项目名。";

test("tiny-pi 真实模型 README 往返：服务器要求 read(README.md)，第二次请求带回工具结果，CLI 打印服务器给出的项目名", async () => {
  const server = await startChatServer([
    toolCallReply("call_readme", "read", { path: "README.md" }, { input: 31, output: 12 }),
    textReply(["项目名是 ", "tiny-pi。"], { input: 58, output: 7 }),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const result = await runCli(["--base-url", server.baseURL, "--model", "gpt-4o-mini", question], workspace);
      assert.equal(result.code, 0, result.stderr);

      assert.equal(server.requests.length, 2, "一次 README 往返请求模型两次");
      const [first, second] = server.requests;
      assert.equal(first.model, "gpt-4o-mini");
      assert.deepEqual(server.authorizations, [undefined, undefined], "没有密钥（本地服务）时不发送 Authorization");
      assert.equal(first.stream, true);
      assert.deepEqual(
        first.tools.map((tool: { function: { name: string } }) => tool.function.name),
        ["read"],
        "默认只有只读的 read",
      );
      assert.deepEqual(
        first.messages.map((message: { role: string }) => message.role),
        ["system", "user"],
      );
      assert.equal(first.messages[1].content, question);

      assert.deepEqual(
        second.messages.map((message: { role: string }) => message.role),
        ["system", "user", "assistant", "tool"],
      );
      assert.equal(second.messages[2].tool_calls[0].id, "call_readme");
      assert.deepEqual(JSON.parse(second.messages[2].tool_calls[0].function.arguments), { path: "README.md" });
      const toolMessage = second.messages[3];
      assert.equal(toolMessage.tool_call_id, "call_readme");
      assert.match(toolMessage.content, /^# tiny-pi\nA small agent runtime\./, "第二次请求带回真实 read 读到的 README");

      const lines = result.stdout.split("\n");
      assert.ok(lines.includes("项目名是 tiny-pi。"), `stdout 打印回答：\n${result.stdout}`);
      assert.ok(
        lines.some((line) => /^ {2}✓ read README\.md → # tiny-pi/.test(line)),
        "一行工具调用：名字、路径、ok、结果开头",
      );
      assert.ok(
        lines.includes("— stop · 2 步 · tokens 输入 89 / 输出 19"),
        "最后一行：reason、steps、两轮 tokens 之和",
      );
      assert.equal(result.stdout.includes("\u001b["), false, "不在终端里：没有颜色");
      assert.equal(result.stderr.includes("内置脚本模型"), false, "用真实模型时不提内置模型");
      assert.equal((await sessionFiles(workspace)).length, 1, "会话写入 .tiny-pi/sessions/");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 不给 --base-url：内置脚本模型离线走完 README 往返，read 是真实工具，工作区是运行 npm 的目录（INIT_CWD），并说明怎样接真实模型", async () => {
  await withWorkspace(async (workspace) => {
    // As under `npm run tiny-pi`: npm runs the script from the repository root and says where it was run in INIT_CWD.
    const result = await runCli([], repoRoot, cliEnv({ INIT_CWD: workspace }));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout.split("\n").slice(0, 4), [
      "我先读取项目说明。",
      "  ✓ read README.md → # tiny-pi（共 2 行）",
      "项目名是 tiny-pi。",
      "— stop · 2 步 · tokens —",
    ]);
    assert.match(result.stderr, /内置脚本模型.*--base-url http:\/\/localhost:11434\/v1 --model/);
    assert.equal((await sessionFiles(workspace)).length, 1, "会话写在那个目录里");
  });
});

test("tiny-pi 内置脚本模型的回答来自真实文件：README 换了标题，回答跟着变；没有 README 时说读不到", async () => {
  await withWorkspace(async (workspace) => {
    await writeFile(path.join(workspace, "README.md"), "# my-agent\n");
    const renamed = await runCli(["--no-session"], workspace);
    assert.ok(renamed.stdout.includes("项目名是 my-agent。"), renamed.stdout);

    await rm(path.join(workspace, "README.md"));
    const missing = await runCli(["--no-session"], workspace);
    assert.equal(missing.code, 0, "模型看到了工具错误并正常回答");
    assert.match(missing.stdout, /^ {2}✗ read README\.md → /m, "工具调用那一行标出 error");
    assert.match(missing.stdout, /没能读取 README\.md/);
  });
});
