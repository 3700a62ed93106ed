// tiny-pi --from a chapter-05 practice directory: --base-url is answered through the learner's own
// openAICompatibleModel (their conversion and stream assembly), against a Chat Completions server
// on 127.0.0.1; the course's provider is not used. A tree whose chapter-05 focused tests fail is refused.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { focusedTestCount } from "@pi/course-kit";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { build, insertAfter, manifest, withTempDir, writeTarget } from "../cli-support/practice-tree.js";
import { isOneLine, runCli, withWorkspace } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

const MAPPER = "packages/pi-ai/src/openai-compatible/chunk-mapper.ts";
const MARK = "学习者的 ChunkMapper.accept";

test("tiny-pi --from practice/05 --base-url：README 往返经练习目录里你的 openAICompatibleModel（开头一行说出 provider 是你的）；没有 --base-url 时说出这次不用它；第 05 章的聚焦测试不通过时一行拒绝、不发请求", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const provider = manifest.checkpoints.find((candidate) => candidate.id === "05");
  assert.ok(provider !== undefined, "课程清单里有第 05 章");
  await withTempDir(async (dir) => {
    const tree = path.join(dir, "practice-05");
    writeTarget("05", tree);
    await insertAfter(
      tree,
      MAPPER,
      "  accept(chunk: ChatCompletionChunk): void {",
      `process.stderr.write(${JSON.stringify(`${MARK}\n`)});`,
    );
    build(tree, "packages/pi-ai");

    await withWorkspace(async (workspace) => {
      const server = await startChatServer([
        toolCallReply("call_readme", "read", { path: "README.md" }),
        textReply(["项目名是 ", "tiny-pi。"]),
      ]);
      try {
        const args = ["--from", tree, "--base-url", server.baseURL, "--model", "m", "--no-session"];
        const run = await runCli([...args, "项目叫什么？"], workspace);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(run.stdout.includes("项目名是 tiny-pi。"), `回答来自服务器：${run.stdout}`);
        assert.match(
          run.stderr,
          /^provider（05）：.*practice-05 里你的 openAICompatibleModel · loop（07）：课程的 runAgentLoop · 工具（08）：课程的 read · /m,
          "开头一行说出 provider 来自练习目录，其余是课程的",
        );
        assert.ok(run.stderr.includes(MARK), `数据块经过练习目录里你的 ChunkMapper：${run.stderr}`);
        assert.equal(server.requests.length, 2, "工具往返：两次请求");
        assert.deepEqual(
          server.requests[1].messages.map((message: { role: string }) => message.role),
          ["system", "user", "assistant", "tool"],
          "第二次请求里你的出站转换把工具结果发成 role tool",
        );

        const embedded = await runCli(["--from", tree, "--no-session"], workspace);
        assert.equal(embedded.code, 0, embedded.stderr);
        assert.match(
          embedded.stderr,
          /^provider（05）：.*practice-05 里你的 openAICompatibleModel（没有 --base-url：这一次回答的是内置脚本模型） · loop（07）：/m,
          "没有 --base-url 时开头一行说出这一次不用你的 provider",
        );
        assert.equal(embedded.stderr.includes(MARK), false, "内置脚本模型不经过 provider");

        // Chapter 05's own diagnostic (fragments joined by "the id changed"): the tree is refused before any request.
        const file = path.join(tree, provider.diagnostic.file);
        const kept = await readFile(file, "utf8");
        assert.ok(kept.includes(provider.diagnostic.find), "第 05 章的诊断在这棵树里能用");
        await writeFile(file, kept.replace(provider.diagnostic.find, provider.diagnostic.replace));
        build(tree, "packages/pi-ai");
        const refused = await runCli([...args, "再问一次"], workspace);
        assert.equal(refused.code, 1, refused.stderr);
        assert.ok(isOneLine(refused.stderr), refused.stderr);
        const passed = focusedTestCount(provider) - provider.diagnostic.failing;
        assert.match(
          refused.stderr,
          new RegExp(
            `第 05 章的聚焦测试没有全部通过（通过 ${passed}/${focusedTestCount(provider)}）：.*verify -w @pi/course -- 05 `,
          ),
          "一行说出第 05 章的聚焦测试没有全部通过，以及去哪里看进度",
        );
        assert.equal(server.requests.length, 2, "拒绝时不发请求");
      } finally {
        await server.close();
      }
    });
  });
});
