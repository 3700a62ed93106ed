// Chapter 18 in tiny-pi, over real sockets on 127.0.0.1: models from a models.json in Pi's format
// (in a temp TINY_PI_HOME), --model provider/id, a virtual model whose fallback answers when the
// first server answers 503, the session's model_change and Pi's usage with the catalogue's cost.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { type ChatServer, errorReply, startChatServer, textReply } from "../cli-support/chat-server.js";
import { PROMPT, ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { cliEnv, isOneLine, runCli, sessionEntries, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

/** A models.json in Pi's format naming `servers` (provider → server), with tiny-pi's virtual models. */
function modelsJson(servers: Record<string, ChatServer>, virtualModels?: object): string {
  const providers = Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      {
        baseUrl: server.baseURL,
        api: "openai-completions",
        apiKey: "none",
        compat: { supportsDeveloperRole: false },
        models: [
          {
            id: "m",
            contextWindow: 32768,
            maxTokens: 4096,
            cost: { input: 2, output: 10, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    ]),
  );
  return JSON.stringify({ providers, ...(virtualModels !== undefined ? { virtualModels } : {}) }, null, 2);
}

async function withHome<T>(content: string, use: (home: string) => Promise<T>): Promise<T> {
  const home = await mkdtemp(path.join(os.tmpdir(), "tiny-pi-home-"));
  try {
    await writeFile(path.join(home, "models.json"), content);
    return await use(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

test("回退端到端：第一个服务器答 503，这一轮由第二个完成；会话记下一条 model_change，人看的输出说出为什么", async () => {
  const down = await startChatServer(Array.from({ length: 6 }, () => errorReply(503, "overloaded", "server_error")));
  const up = await startChatServer([textReply(["备用服务器的回答"], { input: 1000, output: 200 })]);
  try {
    await withHome(
      modelsJson({ primary: down, backup: up }, { auto: { model: "primary/m", fallback: ["backup/m"] } }),
      (home) =>
        withWorkspace(async (workspace) => {
          const result = await runCli(["--model", "auto", "你好"], workspace, cliEnv({ TINY_PI_HOME: home }));
          assert.equal(result.code, 0, result.stderr);
          assert.match(result.stdout, /备用服务器的回答/);
          assert.match(
            result.stderr,
            /模型：虚拟模型 auto：对话 → primary\/m（失败转 backup\/m）/,
            "开头一行说出虚拟模型与它的路由",
          );
          assert.match(
            result.stderr,
            /（primary\/m 没能回答：503 [^\n]*；这个请求改由 backup\/m 回答）/,
            "人看的输出说出为什么换了模型",
          );
          assert.ok(down.requests.length >= 1 && up.requests.length === 1);
          assert.equal(up.requests[0].model, "m");
          const [file] = await sessionFiles(workspace);
          const entries = await sessionEntries(file as string);
          const changes = entries.filter((entry) => entry.type === "model_change");
          assert.deepEqual(
            changes.map(({ provider, modelId }) => ({ provider, modelId })),
            [{ provider: "backup", modelId: "m" }],
            "一条 model_change，名字是 Pi 的 provider 与 modelId",
          );
          assert.deepEqual(
            entries.map((entry) => (entry.type === "message" ? (entry.message as { role: string }).role : entry.type)),
            ["user", "assistant", "model_change"],
            "model_change 在这一轮的消息之后",
          );
          const reply = entries[1]?.message as Record<string, unknown>;
          assert.deepEqual([reply.api, reply.provider, reply.model], ["openai-completions", "backup", "m"]);
          const usage = reply.usage as { cost: Record<string, number> };
          assert.deepEqual(
            usage.cost,
            { input: 0.002, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.004 },
            "cost 按目录的每百万 token 价格算",
          );
          const tree = await runCli(["tree", file as string], workspace);
          assert.match(tree.stdout, /模型\s+backup\/m/, "tree 画出切换");
          const sessions = await runCli(["sessions"], workspace);
          assert.match(sessions.stdout, /· 模型 backup\/m/, "sessions 说出最后的模型");
        }),
    );
  } finally {
    await Promise.all([down.close(), up.close()]);
  }
});

test("models.json：--model provider/id 与只写 id 都能选中；未知的模型一行列出已知的 id，不碰会话；文件写错一行说出在哪", async () => {
  const a = await startChatServer([textReply(["a 答"])]);
  const b = await startChatServer([textReply(["b 答"])]);
  try {
    await withHome(modelsJson({ a, b }, { auto: { model: "a/m" } }), (home) =>
      withWorkspace(async (workspace) => {
        const env = cliEnv({ TINY_PI_HOME: home });
        const picked = await runCli(["--model", "b/m", "-p", "你好"], workspace, env);
        assert.equal(picked.code, 0, picked.stderr);
        assert.equal(picked.stdout.trim(), "b 答");
        const ambiguous = await runCli(["--model", "m", "你好"], workspace, env);
        assert.equal(ambiguous.code, 2);
        assert.match(ambiguous.stderr, /有 2 个 provider 都有 m，请写成 provider\/m/);
        const unknown = await runCli(["--model", "c/m", "你好"], workspace, env);
        assert.equal(unknown.code, 2);
        assert.ok(isOneLine(unknown.stderr), unknown.stderr);
        assert.match(unknown.stderr, /--model c\/m：.*models\.json 里没有 c\/m：已知的模型有 a\/m、b\/m、auto$/m);
        assert.equal((await sessionFiles(workspace)).length, 1, "被拒绝的运行不写会话");
        await writeFile(
          path.join(home, "models.json"),
          JSON.stringify({ providers: { a: { baseUrl: a.baseURL, models: [{ id: "" }] } } }),
        );
        const broken = await runCli(["--model", "a/m", "你好"], workspace, env);
        assert.equal(broken.code, 2);
        assert.ok(isOneLine(broken.stderr), broken.stderr);
        assert.match(broken.stderr, /models\.json：providers\.a\.models\[0\]\.id 要是非空字符串/);
      }),
    );
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("--base-url/--model 仍是一个模型的目录：换 --model 继续同一个会话时，这一轮之后记下 model_change，模型没变时不记", async () => {
  const server = await startChatServer([textReply(["一"]), textReply(["二"]), textReply(["三"])]);
  try {
    await withWorkspace(async (workspace) => {
      const first = await runCli(["--base-url", server.baseURL, "--model", "small", "第一问"], workspace);
      assert.equal(first.code, 0, first.stderr);
      const [file] = await sessionFiles(workspace);
      const second = await runCli(
        ["--base-url", server.baseURL, "--model", "large", "--resume", file as string, "第二问"],
        workspace,
      );
      assert.equal(second.code, 0, second.stderr);
      const entries = await sessionEntries(file as string);
      assert.deepEqual(
        entries.filter((entry) => entry.type === "model_change").map((entry) => entry.modelId),
        ["large"],
        "只有模型真的变了才记",
      );
      assert.equal(entries.at(-1)?.type, "model_change");
      assert.deepEqual(
        server.requests.map((request) => request.model),
        ["small", "large"],
      );
    });
  } finally {
    await server.close();
  }
});

test("REPL 的 /model 与 /thinking：切换并立即记下 model_change / thinking_level_change，下一轮由新模型回答；未知的一行列出可选的；/branch 回到早先的条目时换回那个分支的模型", {
  skip: ptyUnavailable(),
}, async (t) => {
  const a = await startChatServer([textReply(["a 的第一轮"]), textReply(["a 的分支"])]);
  const b = await startChatServer([textReply(["b 的第二轮"])]);
  try {
    await withHome(modelsJson({ a, b }), (home) =>
      withWorkspace(async (workspace) => {
        const pty = startOnPty(["--model", "a/m"], workspace, cliEnv({ TINY_PI_HOME: home }));
        t.after(() => pty.stop());
        await pty.waitFor(PROMPT);
        await pty.ask("第一问", "a 的第一轮");
        pty.type("/model c/m\r");
        await pty.waitFor("/model 没有 c/m：已知的模型有 a/m、b/m");
        pty.type("/model b/m\r");
        await pty.waitFor("（已切换到 b/m）");
        pty.type("/thinking lots\r");
        await pty.waitFor("/thinking lots：不是 Pi 的思考级别");
        pty.type("/thinking high\r");
        await pty.waitFor("（思考级别：high");
        await pty.ask("第二问", "b 的第二轮");
        const [file] = await sessionFiles(workspace);
        const entries = await sessionEntries(file as string);
        const kinds = entries.map((entry) =>
          entry.type === "message" ? (entry.message as { role: string }).role : entry.type,
        );
        assert.deepEqual(kinds, ["user", "assistant", "model_change", "thinking_level_change", "user", "assistant"]);
        assert.equal(entries[3]?.thinkingLevel, "high", "Pi 的 thinking_level_change 形状");
        const early = entries[1]?.id as string;
        pty.type(`/branch ${early}\r`);
        await pty.waitFor(`（叶已移到 ${early}`);
        await pty.ask("分支上的问题", "a 的分支");
        assert.equal(await pty.leave(), 0, pty.screen());
        assert.equal(a.requests.length, 2, "回到早先的分支后由那个分支的模型 a/m 回答");
        assert.equal(b.requests.length, 1);
      }),
    );
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
