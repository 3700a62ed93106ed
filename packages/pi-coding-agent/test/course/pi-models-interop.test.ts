// Model switches move between tiny-pi and the real upstream Pi 0.73.1 (the root devDependency),
// both reading one models.json in Pi's format (tiny-pi's virtualModels key included: Pi's schema
// lets it through) whose providers are one server on 127.0.0.1. A session tiny-pi switched twice
// is exported by `pi --offline --export` with both switches and continued by Pi on the branch's
// newest model; a session Pi switched with RPC set_model is continued by tiny-pi on that model.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { type ChatServer, startChatServer, textReply } from "../cli-support/chat-server.js";
import { MODEL, PROVIDER, piEnvironment, piUnavailable, runPiWith, startPiRpc } from "../cli-support/pi-upstream.js";
import { cliEnv, runCli, sessionEntries, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

const skip = piUnavailable();

type Entry = { type: string; id: string; [key: string]: unknown };

let home: string;
let server: ChatServer;
let piEnv: NodeJS.ProcessEnv;
let tinyEnv: NodeJS.ProcessEnv;

function switches(entries: readonly Entry[]): string[] {
  return entries.filter((entry) => entry.type === "model_change").map((entry) => `${entry.provider}/${entry.modelId}`);
}

before(async () => {
  if (skip !== undefined) return;
  home = await mkdtemp(path.join(os.tmpdir(), "pi-models-interop-"));
  server = await startChatServer(Array.from({ length: 20 }, (_, index) => textReply([`answer ${index + 1}`])));
  piEnv = await piEnvironment(home, server.baseURL);
  const provider = (id: string) => ({
    baseUrl: server.baseURL,
    api: "openai-completions",
    apiKey: "none",
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id, contextWindow: 32768, maxTokens: 4096 }],
  });
  const models = {
    providers: { [PROVIDER]: provider(MODEL), a: provider("alpha"), b: provider("beta") },
    virtualModels: { auto: { model: "a/alpha", fallback: ["b/beta"] } },
  };
  // One file for both agents: Pi's agent folder and tiny-pi's home.
  await writeFile(path.join(home, ".pi", "agent", "models.json"), JSON.stringify(models, null, 2));
  const tinyHome = path.join(home, "tiny-pi-home");
  await mkdir(tinyHome);
  await writeFile(path.join(tinyHome, "models.json"), JSON.stringify(models, null, 2));
  tinyEnv = cliEnv({ TINY_PI_HOME: tinyHome });
});

after(async () => {
  if (skip !== undefined) return;
  await server.close();
  await rm(home, { recursive: true, force: true });
});

test("tiny-pi 切换两次模型的会话：pi --offline --export 列出两次切换；Pi 接着这个文件继续时用分支上最新 model_change 的模型", {
  skip,
}, async () => {
  await withWorkspace(async (workspace) => {
    const first = await runCli(["--model", "a/alpha", "first"], workspace, tinyEnv);
    assert.equal(first.code, 0, first.stderr);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    for (const [model, prompt] of [
      ["b/beta", "second"],
      ["a/alpha", "third"],
    ] as const) {
      const run = await runCli(["--model", model, "--resume", file, prompt], workspace, tinyEnv);
      assert.equal(run.code, 0, run.stderr);
    }
    assert.deepEqual(switches(await sessionEntries(file)), ["b/beta", "a/alpha"], "tiny-pi 记下两次切换");

    const out = path.join(workspace, "session.html");
    const exported = await runPiWith(["--offline", "--export", file, out], workspace, piEnv);
    assert.equal(exported.code, 0, `${exported.stdout}${exported.stderr}`);
    const page = await readFile(out, "utf8");
    const data = /<script id="session-data"[^>]*>([^<]*)<\/script>/.exec(page)?.[1];
    assert.ok(data !== undefined, "导出的页面里有会话数据");
    const embedded = JSON.stringify(JSON.parse(Buffer.from(data.trim(), "base64").toString("utf8")));
    for (const modelId of ["beta", "alpha"]) {
      assert.match(
        embedded,
        new RegExp(`"type":"model_change"[^}]*"modelId":"${modelId}"`),
        `导出里有切到 ${modelId} 的那条`,
      );
    }

    // Pi's own default (settings.json) is another model: the session's branch decides.
    await writeFile(
      path.join(home, ".pi", "agent", "settings.json"),
      JSON.stringify({ defaultProvider: "b", defaultModel: "beta", enableInstallTelemetry: false }),
    );
    const asked = server.requests.length;
    const continued = await runPiWith(
      ["--offline", "--no-context-files", "--no-skills", "--session", file, "-p", "fourth"],
      workspace,
      piEnv,
    );
    assert.equal(continued.code, 0, `${continued.stdout}${continued.stderr}`);
    assert.equal(server.requests.length, asked + 1, "Pi 发了一个请求");
    assert.equal(server.requests.at(-1).model, "alpha", "Pi 用分支上最新的 model_change 的模型");
  });
});

test("Pi 用 set_model 切换过的会话：tiny-pi --resume（不给 --model）接着用分支上最新的模型", { skip }, async () => {
  await withWorkspace(async (workspace) => {
    const rpc = startPiRpc(["--session-dir", path.join(workspace, "pi-sessions")], workspace, piEnv);
    let file: string;
    try {
      const prompt = async (message: string) => {
        const end = rpc.next("agent_end");
        await rpc.send({ type: "prompt", message });
        await end;
      };
      await prompt("one");
      await rpc.send({ type: "set_model", provider: "a", modelId: "alpha" });
      await prompt("two");
      await rpc.send({ type: "set_model", provider: "b", modelId: "beta" });
      file = ((await rpc.send({ type: "get_state" })) as { data: { sessionFile: string } }).data.sessionFile;
    } finally {
      await rpc.stop();
    }
    const written = switches(await sessionEntries(file));
    assert.deepEqual(written.slice(-2), ["a/alpha", "b/beta"], `Pi 写下了两次切换：${written.join(", ")}`);
    const asked = server.requests.length;
    const resumed = await runCli(["--resume", file, "three"], workspace, tinyEnv);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /模型：b\/beta（这个分支上最近选用的模型）/);
    assert.equal(server.requests.length, asked + 1);
    assert.equal(server.requests.at(-1).model, "beta", "tiny-pi 用分支上最新的模型");
    assert.deepEqual(
      switches(await sessionEntries(file)).slice(-2),
      ["a/alpha", "b/beta"],
      "模型没变，tiny-pi 不再写 model_change",
    );
  });
});
