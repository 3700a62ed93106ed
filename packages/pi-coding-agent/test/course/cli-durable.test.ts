// Chapter 19 end to end: tiny-pi killed (TINY_PI_KILL_AT, an event count, never a timer) between a
// bash intent's commit and its execute(), and in the middle of a streamed answer; --resume without a
// prompt says in one line what it found and goes on with the task. The file stays one Pi v3 session:
// `pi --offline --export` renders it and Pi 0.73.1 continues it, every byte tiny-pi committed kept.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { committedPart } from "../../src/durable/committed-part.js";
import { startChatServer, textReply, toolCallsReply } from "../cli-support/chat-server.js";
import { MODEL, piEnvironment, piUnavailable, runPi, startPiRpc } from "../cli-support/pi-upstream.js";
import { cliEnv, runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

// biome-ignore lint/suspicious/noExplicitAny: session lines are read field by field
type Line = any;

function lines(file: string): Line[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

function messages(file: string): Line[] {
  return lines(file).flatMap((line) => (line.type === "message" ? [line.message] : []));
}

/** Every tool call in `file` has a result. */
function assertPaired(file: string): void {
  const all = messages(file);
  const answered = new Set(all.filter((message) => message.role === "toolResult").map((message) => message.toolCallId));
  for (const message of all) {
    for (const block of message.role === "assistant" ? message.content : []) {
      if (block.type === "toolCall") assert.ok(answered.has(block.id), `调用 ${block.id} 有成对的结果`);
    }
  }
}

test("tiny-pi 在 bash 的意图提交之后、execute() 之前被杀：--resume 一行说出重跑与 interrupted 的个数，read 重跑，bash 不跑，任务继续到完成", async () => {
  const server = await startChatServer([
    toolCallsReply([
      { id: "call_read", name: "read", args: { path: "README.md" } },
      { id: "call_bash", name: "bash", args: { command: "touch ran.txt" } },
    ]),
    textReply(["bash 可能没跑，", "我先检查。"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", "m", "--tools", "read,bash", "--yes"];
      const killed = await runCli(
        [...endpoint, "读 README 再跑命令"],
        workspace,
        cliEnv({ TINY_PI_KILL_AT: "intent:2" }),
      );
      assert.equal(killed.code, null, `被 SIGKILL：${killed.stderr}`);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined, "会话文件在被杀之前就有了");
      const before = await readFile(file, "utf8");
      const intents = lines(file).filter((line) => line.data?.kind === "intent");
      assert.deepEqual(
        intents.map((line) => [line.data.callId, line.data.replaySafe]),
        [
          ["call_read", true],
          ["call_bash", false],
        ],
      );

      const resumed = await runCli([...endpoint, "--resume", file], workspace);
      assert.equal(resumed.code, 0, resumed.stderr);
      const line = resumed.stderr.split("\n").filter((text) => text.startsWith("恢复："));
      assert.equal(line.length, 1, `恢复只说一行：${resumed.stderr}`);
      assert.match(line[0] ?? "", /重跑了 1 个可重放的调用，1 个不可重放的调用标为 interrupted；继续未完成的任务/);
      assert.ok(resumed.stdout.includes("我先检查。"), "任务继续到模型的回答");
      assert.equal(existsSync(path.join(workspace, "ran.txt")), false, "被打断的 bash 没有在恢复时再跑");
      const after = await readFile(file, "utf8");
      assert.ok(after.startsWith(before), "已提交的字节原样留在前面");
      assertPaired(file);
      const wire = server.requests[1].messages as { role: string; tool_call_id?: string; content?: string }[];
      assert.match(
        String(wire.find((m) => m.tool_call_id === "call_bash")?.content),
        /^Interrupted: this call may or may not have run/,
      );
      assert.match(
        String(wire.find((m) => m.tool_call_id === "call_read")?.content),
        /tiny-pi/,
        "read 重跑，结果是文件的内容",
      );
      assert.equal(server.requests.length, 2, "没有多余的请求");
    });
  } finally {
    await server.close();
  }
});

/**
 * A new session's first prompt, killed halfway through its second commit (commit 1 is the prompt
 * and its task; commit 2 the task's running record): resolves with the session file.
 */
async function killedBeforeRunning(endpoint: string[], workspace: string): Promise<string> {
  const killed = await runCli([...endpoint, "第一个问题"], workspace, cliEnv({ TINY_PI_KILL_AT: "commit:2" }));
  assert.equal(killed.signal, "SIGKILL", `被 SIGKILL：${killed.stderr}`);
  const [file] = await sessionFiles(workspace);
  assert.ok(file !== undefined, "会话文件在被杀之前就有了");
  return file;
}

test("新会话的第一个任务在 running 的记录写到一半时被杀（提示与任务已提交）：--resume 不带问题继续这个任务，不说没有任务", async () => {
  const server = await startChatServer([textReply(["第一次的回答"]), textReply(["从头再答一遍。"])]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", "m"];
      const file = await killedBeforeRunning(endpoint, workspace);
      const committed = committedPart(readFileSync(file, "utf8")).values as Line[];
      const tasks = committed.filter((line) => line.data?.kind === "task");
      assert.deepEqual(
        tasks.map((line) => [line.data.state, line.parentId]),
        [["pending", null]],
        "已提交的只有挂在根上的 pending 任务（它的 running 记录只写了一半）",
      );
      const resumed = await runCli([...endpoint, "--resume", file], workspace);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /继续未完成的任务/, "恢复读到了挂在根上的任务");
      assert.ok(resumed.stdout.includes("从头再答一遍。"), "请求从头再发");
      const user = messages(file).filter((message) => message.role === "user");
      assert.equal(user.length, 1, "没有多出一条用户消息");
    });
  } finally {
    await server.close();
  }
});

test("崩溃后 --resume FILE 带着新的提示：恢复一行说未完成的任务不再继续、这个提示开始新的任务，而不说继续它", async () => {
  const server = await startChatServer([textReply(["第一次的回答"]), textReply(["新问题的回答。"])]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", "m"];
      const file = await killedBeforeRunning(endpoint, workspace);
      const resumed = await runCli([...endpoint, "--resume", file, "换个问题"], workspace);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /未完成的任务 \S+ 不再继续：这次的提示开始新的任务/, "恢复一行说出旧任务不再继续");
      assert.doesNotMatch(resumed.stderr, /继续未完成的任务/, "给了提示时不说继续旧任务");
      assert.ok(resumed.stdout.includes("新问题的回答。"), "新的提示得到回答");
      const user = messages(file).filter((message) => message.role === "user");
      assert.equal(user.length, 2, "旧提示和新提示各一条用户消息");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 在流式回答中途被杀：部分回答成为一条中止的条目，--resume 从头再发请求；Pi 0.73.1 的 --export 渲染这个文件，Pi 接着它继续，已提交的字节不变", {
  skip: piUnavailable(),
}, async () => {
  const long = Array.from({ length: 40 }, (_, n) => `第${n}段。`);
  const server = await startChatServer([
    textReply(["第一轮回答"]),
    textReply(long),
    textReply(["从头再讲一遍。"]),
    textReply(["Pi 接着说。"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const endpoint = ["--base-url", server.baseURL, "--model", MODEL];
      assert.equal((await runCli([...endpoint, "第一个问题"], workspace)).code, 0);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined);
      const killed = await runCli(
        [...endpoint, "--resume", file, "讲个长故事"],
        workspace,
        cliEnv({ TINY_PI_KILL_AT: "stream:30" }),
      );
      assert.equal(killed.code, null, killed.stderr);
      const partial = lines(file).filter((line) => line.data?.kind === "partial");
      assert.ok(partial.length >= 1, "杀之前已有部分输出提交");

      const resumed = await runCli([...endpoint, "--resume", file], workspace);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(
        resumed.stderr,
        /恢复：部分回答已保留为一条中止的回答；重跑了 0 个可重放的调用，0 个不可重放的调用标为 interrupted；/,
      );
      const all = messages(file);
      const aborted = all.find((message) => message.role === "assistant" && message.stopReason === "aborted");
      assert.ok(aborted?.content?.[0]?.text.startsWith("第0段。第1段。"), "中止的条目里是已经流出的文字");
      assert.equal(all.at(-1)?.content?.[0]?.text, "从头再讲一遍。", "请求从头再发，得到完整的回答");
      const resent = server.requests[2].messages as { role: string; content?: string }[];
      assert.equal(resent.filter((m) => m.role === "user").at(-1)?.content, "讲个长故事", "重发的请求还是这个问题");

      const home = path.join(workspace, "..", `${path.basename(workspace)}-pi-home`);
      // Pi's home sits beside the workspace (Pi would read a .pi inside it as project settings);
      // withWorkspace removes only the workspace, so this test removes the home itself.
      try {
        await mkdir(home, { recursive: true });
        const env = await piEnvironment(home, server.baseURL);
        const page = path.join(home, "durable.html");
        const exported = await runPi(["--export", file, page], workspace, env);
        assert.equal(exported.code, 0, exported.stderr);
        assert.ok(existsSync(page), "Pi 写出了页面");

        const before = await readFile(file, "utf8");
        const pi = startPiRpc(["--session", file], workspace, env);
        try {
          const end = pi.next("agent_end");
          await pi.send({ type: "prompt", message: "Pi 来接着" });
          await end;
        } finally {
          await pi.stop();
        }
        const after = await readFile(file, "utf8");
        assert.ok(
          after.startsWith(before) && after.length > before.length,
          "Pi 在文件后面追加，tiny-pi 提交的字节不变",
        );
        assert.ok(after.includes("Pi 接着说。"));
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    });
  } finally {
    await server.close();
  }
});
