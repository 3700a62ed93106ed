// The key tiny-pi is given stays out of everything it prints or saves, and a password in
// --base-url is refused without being printed back.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { closedPort, errorReply, startChatServer, toolCallReply } from "../cli-support/chat-server.js";
import { cliEnv, isOneLine, runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

const KEY = "sk-proj-7Hq2Lm9Xv4Tz8Kc1";

test("--base-url 带用户名和密码：一行说明改用 --api-key，退出码 2，密码不出现在输出里（地址写错时也不出现），什么也不写", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(
      ["--base-url", "http://learner:hunter22@127.0.0.1:9/v1", "--model", "m", "hi"],
      workspace,
    );
    assert.equal(result.code, 2);
    assert.ok(isOneLine(result.stderr), result.stderr);
    assert.match(
      result.stderr,
      /--base-url 里不能带用户名或密码：请写 --base-url http:\/\/127\.0\.0\.1:9\/v1，密钥用 --api-key/,
    );
    assert.equal(`${result.stdout}${result.stderr}`.includes("hunter22"), false);
    assert.deepEqual(await sessionFiles(workspace), []);

    for (const url of ["http://learner:hunter22@[bad/v1", "ftp://learner:hunter22@127.0.0.1/v1"]) {
      const refused = await runCli(["--base-url", url, "--model", "m", "hi"], workspace);
      assert.equal(refused.code, 2);
      assert.ok(isOneLine(refused.stderr), refused.stderr);
      assert.equal(refused.stderr.includes("hunter22"), false, refused.stderr);
    }
  });
});

for (const [how, keyArgs, env] of [
  ["--api-key", ["--api-key", KEY], cliEnv()],
  ["OPENAI_API_KEY", [], cliEnv({ OPENAI_API_KEY: KEY })],
] as const) {
  test(`密钥（${how}）出现在工具输出和服务器的 401 回显里：终端、--json 与会话文件里只有 [redacted]`, async () => {
    for (const json of [false, true]) {
      const server = await startChatServer([
        toolCallReply("call-1", "read", { path: "notes.txt" }),
        errorReply(401, `Incorrect API key provided: ${KEY}. Sent "Authorization: Bearer ${KEY}".`, "invalid_api_key"),
      ]);
      try {
        await withWorkspace(async (workspace) => {
          await writeFile(path.join(workspace, "notes.txt"), `OPENAI_API_KEY=${KEY}\n`);
          const args = ["--base-url", server.baseURL, "--model", "m", ...keyArgs, ...(json ? ["--json"] : [])];
          const result = await runCli([...args, "读 notes.txt"], workspace, env);
          assert.equal(result.code, 1, result.stderr);
          assert.equal(server.authorizations[0], `Bearer ${KEY}`, "请求本身带着密钥");
          const [file] = await sessionFiles(workspace);
          assert.ok(file !== undefined);
          const saved = await readFile(file, "utf8");
          for (const [where, text] of Object.entries({
            stdout: result.stdout,
            stderr: result.stderr,
            会话文件: saved,
          })) {
            assert.equal(text.includes("7Hq2Lm9Xv4Tz8Kc1"), false, `${where} 里有密钥：${text}`);
          }
          assert.match(saved, /OPENAI_API_KEY=\[redacted\]/);
          assert.match(
            result.stderr,
            /Incorrect API key provided: \[redacted\]\. Sent "Authorization: Bearer \[redacted\]"/,
          );
          if (json) assert.match(result.stdout, /OPENAI_API_KEY=\[redacted\]/);
        });
      } finally {
        await server.close();
      }
    }
  });
}

test("--base-url 的查询串里带着密钥（?key=…）：连不上时终端与会话文件里只有 [redacted]", async () => {
  const secret = "sk-query-4Nd8Yb6Lx";
  await withWorkspace(async (workspace) => {
    const result = await runCli(
      ["--base-url", `http://127.0.0.1:${await closedPort()}/v1?key=${secret}`, "--model", "m", "hi"],
      workspace,
    );
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /连不上 http:\/\/127\.0\.0\.1:\d+\/v1\?key=\[redacted\]/);
    assert.equal(`${result.stdout}${result.stderr}`.includes(secret), false, result.stderr);
    for (const file of await sessionFiles(workspace)) {
      assert.equal((await readFile(file, "utf8")).includes(secret), false, `密钥出现在 ${path.basename(file)}`);
    }
  });
});
