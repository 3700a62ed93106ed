// tiny-pi past the model's window, against a loopback Chat Completions server: with a small
// --context-window the request that would not fit is preceded by one summarisation request, the
// session gains a `compaction` entry, and the next request starts from its summary with every
// call paired. Failed, aborted or malformed summaries append nothing; a newest interaction too big
// for any compaction is one line naming the sizes, and no request is sent. Pi-written compaction
// entries are used on --resume the same way.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { SUMMARY_PREFIX } from "../../src/index.js";
import { errorReply, heldReply, startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { PROMPT, ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import {
  cliEnv,
  finished,
  isOneLine,
  runCli,
  sessionFiles,
  startCli,
  withWorkspace,
  writeSession,
} from "../cli-support/run-cli.js";

const summary = {
  goal: "Learn what the project is",
  constraints: ["Answer briefly"],
  done: ["Read README.md"],
  inProgress: [],
  blocked: [],
  decisions: [],
  nextSteps: ["Answer the new question"],
  criticalContext: ["The project is tiny-pi"],
};
const summaryReply = () => textReply([JSON.stringify(summary)]);
/** 800 ASCII characters: about 200 tokens by the documented estimate. */
const longAnswer = (topic: string) => `${topic}: ${"the runtime keeps every call with its result. ".repeat(17)}`;
/** A README the new turn reads: about 300 tokens more in the request after it. */
const bigReadme = `# tiny-pi\n${"A small agent runtime that keeps its context bounded. ".repeat(22)}\n`;

/** Two earlier interactions (ids 00000001…00000004) in a session file of `workspace`. */
async function twoInteractions(workspace: string): Promise<string> {
  const file = path.join(workspace, "earlier.jsonl");
  const at = 1764583200000;
  await writeSession(file, [
    { role: "user", content: "first question", timestamp: at },
    { role: "assistant", content: [{ type: "text", text: longAnswer("first") }], stopReason: "stop", timestamp: at },
    { role: "user", content: "second question", timestamp: at },
    { role: "assistant", content: [{ type: "text", text: longAnswer("second") }], stopReason: "stop", timestamp: at },
  ]);
  return file;
}

// biome-ignore lint/suspicious/noExplicitAny: session file lines are read field by field
async function entries(file: string): Promise<any[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .slice(1)
    .map((line) => JSON.parse(line));
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are read field by field
function assertPaired(messages: any[]): void {
  for (const [index, message] of messages.entries()) {
    if (message.role !== "tool") continue;
    const owner = messages
      .slice(0, index)
      .reverse()
      .find((earlier) => earlier.role === "assistant");
    assert.ok(
      owner?.tool_calls?.some((call: { id: string }) => call.id === message.tool_call_id),
      `结果 ${message.tool_call_id} 跟在它的调用之后`,
    );
  }
  for (const [index, message] of messages.entries()) {
    for (const call of message.tool_calls ?? []) {
      assert.ok(
        messages.slice(index + 1).some((later) => later.role === "tool" && later.tool_call_id === call.id),
        `调用 ${call.id} 有结果`,
      );
    }
  }
}

const window = ["--context-window", "800", "--reserve", "100"];

test("tiny-pi 超出窗口：一轮的两步之间先发一次摘要请求，再从摘要开始请求，调用都配对；会话多出 firstKeptEntryId 指向交互开头的 compaction 条目", async () => {
  const server = await startChatServer([
    toolCallReply("call_readme", "read", { path: "README.md" }),
    summaryReply(),
    textReply(["项目名是 tiny-pi。"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      await writeFile(path.join(workspace, "README.md"), bigReadme);
      const file = await twoInteractions(workspace);
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", ...window, "--resume", file, "What is the project called?"],
        workspace,
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.length, 3, "请求、摘要请求、从摘要开始的请求");
      const [first, summarising, after] = server.requests;

      assert.deepEqual(
        first.messages.map((message: { role: string }) => message.role),
        ["system", "user", "assistant", "user", "assistant", "user"],
        "第一步还放得下：完整的历史",
      );
      assert.equal(summarising.tools, undefined, "摘要请求不带工具");
      assert.match(summarising.messages[0].content, /会话压缩器/, "系统提示是仓库里的摘要提示");
      assert.match(summarising.messages[1].content, /\[用户\] first question/, "较早的对话写成文字交给模型");
      assert.match(summarising.messages[1].content, /\[用户\] second question/);

      assert.equal(after.messages[0].role, "system");
      assert.equal(after.messages[1].role, "user");
      assert.ok(after.messages[1].content.startsWith(SUMMARY_PREFIX), "从摘要开始");
      assert.match(after.messages[1].content, /The project is tiny-pi/);
      assert.deepEqual(
        after.messages.slice(2).map((message: { role: string }) => message.role),
        ["user", "assistant", "tool"],
        "摘要之后是最新的一轮：问题、调用和它的结果",
      );
      assert.equal(after.messages[2].content, "What is the project called?");
      assert.equal(JSON.stringify(after).includes("first question"), false, "较早的消息不再发送");
      assertPaired(after.messages);

      const written = await entries(file);
      const compactions = written.filter((entry) => entry.type === "compaction");
      assert.equal(compactions.length, 1);
      const [compaction] = compactions;
      const kept = written.find((entry) => entry.id === compaction.firstKeptEntryId);
      assert.equal(kept?.message?.role, "user", "firstKeptEntryId 是一段交互的第一条消息");
      assert.equal(kept.message.content, "What is the project called?");
      assert.deepEqual(compaction.details.structured, summary);
      assert.ok(compaction.tokensBefore > 0);
      const toolResult = written.find((entry) => entry.message?.role === "toolResult");
      assert.equal(compaction.parentId, toolResult.id, "压缩发生在工具结果之后、下一步之前");
      assert.equal(written.at(-1).parentId, compaction.id, "回答接在 compaction 条目之后");

      const line = /（上下文已压缩：约 (\d+) → (\d+) token，4 条较早的消息换成了摘要）/.exec(result.stderr);
      assert.ok(line, result.stderr);
      assert.ok(Number(line[1]) > Number(line[2]), "压缩后更小");
      assert.match(result.stderr, /上下文窗口 800 token（--context-window），其中 100 留给回答/);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 摘要请求失败（400）：一行说明，会话里没有 compaction 条目；再运行一次从同样的状态压缩成功", async () => {
  const server = await startChatServer([
    toolCallReply("call_readme", "read", { path: "README.md" }),
    // The summary request asks for JSON output; a 400 to it is asked once more without response_format.
    errorReply(400, "bad request", "invalid"),
    errorReply(400, "bad request", "invalid"),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      await writeFile(path.join(workspace, "README.md"), bigReadme);
      const file = await twoInteractions(workspace);
      const args = ["--base-url", server.baseURL, "--model", "m", ...window, "--resume", file];
      const result = await runCli([...args, "What is the project called?"], workspace);
      assert.equal(result.code, 1);
      const failure = result.stderr.split("\n").filter((line) => line.startsWith("上下文压缩失败"));
      assert.deepEqual(failure.length, 1, result.stderr);
      assert.match(failure[0] as string, /^上下文压缩失败：摘要请求出错（400 .*）：会话没有改动/);
      assert.equal((await entries(file)).filter((entry) => entry.type === "compaction").length, 0, "什么也没追加");

      const retry = await startChatServer([summaryReply(), textReply(["项目名是 tiny-pi。"])]);
      try {
        const again = await runCli(
          ["--base-url", retry.baseURL, "--model", "m", ...window, "--resume", file, "再试一次"],
          workspace,
        );
        assert.equal(again.code, 0, again.stderr);
        assert.match(retry.requests[0].messages[1].content, /\[用户\] first question/, "摘要的仍是同样的较早对话");
        assert.equal((await entries(file)).filter((entry) => entry.type === "compaction").length, 1);
      } finally {
        await retry.close();
      }
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 模型的摘要不是要求的 JSON：一行说明，会话里没有 compaction 条目，不再发送请求", async () => {
  for (const answer of ["Sure! Here is a summary: the user asked things.", JSON.stringify({ ...summary, goal: 3 })]) {
    const server = await startChatServer([
      toolCallReply("call_readme", "read", { path: "README.md" }),
      textReply([answer]),
    ]);
    try {
      await withWorkspace(async (workspace) => {
        await writeFile(path.join(workspace, "README.md"), bigReadme);
        const file = await twoInteractions(workspace);
        const result = await runCli(
          ["--base-url", server.baseURL, "--model", "m", ...window, "--resume", file, "What is the project called?"],
          workspace,
        );
        assert.equal(result.code, 1);
        assert.match(result.stderr, /^上下文压缩失败：模型的摘要(不是 JSON|格式不对).*：会话没有改动/m, result.stderr);
        assert.equal(server.requests.length, 2, "摘要之后不再请求");
        assert.equal((await entries(file)).filter((entry) => entry.type === "compaction").length, 0);
      });
    } finally {
      await server.close();
    }
  }
});

test("tiny-pi 摘要请求进行中收到 SIGINT：中止它，以 aborted 结束并用一行说明，会话里没有 compaction 条目", async () => {
  const held = heldReply(summaryReply());
  const server = await startChatServer([toolCallReply("call_readme", "read", { path: "README.md" }), held.reply]);
  try {
    await withWorkspace(async (workspace) => {
      await writeFile(path.join(workspace, "README.md"), bigReadme);
      const file = await twoInteractions(workspace);
      const child = startCli(
        ["--base-url", server.baseURL, "--model", "m", ...window, "--resume", file, "What is the project called?"],
        workspace,
      );
      const result = finished(child);
      await held.arrived;
      child.kill("SIGINT");
      const { code, stdout, stderr } = await result;
      held.release();
      assert.equal(code, 1, stderr);
      assert.match(stdout, /^— aborted · 2 步/m);
      assert.match(stderr, /^上下文压缩失败：摘要请求被中止（Ctrl-C）：会话没有改动/m);
      assert.equal(stderr.includes("这一轮已中止"), false, "只有一行，说的是压缩");
      assert.equal((await entries(file)).filter((entry) => entry.type === "compaction").length, 0);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 最新的一轮本身就放不下：一行说明大小，不发任何请求（不是服务器的 400），退出码 1", async () => {
  const server = await startChatServer([textReply(["不该到这里"])]);
  try {
    await withWorkspace(async (workspace) => {
      const huge = "Please look at this. ".repeat(200);
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "--context-window", "600", "--reserve", "100", huge],
        workspace,
      );
      assert.equal(result.code, 1);
      assert.equal(server.requests.length, 0, "没有请求发出");
      const line = result.stderr.split("\n").find((text) => text.startsWith("上下文放不下"));
      assert.ok(line, result.stderr);
      assert.match(
        line,
        /^上下文放不下：最新的一轮约 \d+ token，超过可用的 \d+ token（窗口 600 − 回答预留 100 − 系统提示与工具 \d+ − 估算余量）/,
      );

      const tiny = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "--context-window", "200", "hi"],
        workspace,
      );
      assert.equal(tiny.code, 1);
      assert.match(
        tiny.stderr,
        /^上下文放不下：窗口 200 token 减去回答预留 50、系统提示与工具 \d+ 和估算余量，已经不剩留给对话的 token/m,
      );
      assert.equal(server.requests.length, 0, "窗口连系统提示都放不下时也不发请求");
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi --resume Pi 写的 compaction 条目（自由文本 summary，details 只有 readFiles/modifiedFiles）：请求从它的摘要和 firstKeptEntryId 开始", async () => {
  const server = await startChatServer([textReply(["好的。"])]);
  try {
    await withWorkspace(async (workspace) => {
      const file = path.join(workspace, "pi.jsonl");
      const at = "2026-12-01T10:00:00.000Z";
      const message = (id: string, parentId: string | null, body: object) => ({
        type: "message",
        id,
        parentId,
        timestamp: at,
        message: { timestamp: 1764583200000, ...body },
      });
      const lines = [
        { type: "session", version: 3, id: "5d1a0c2e-7b3f-4c1d-9e8a-0f1b2c3d4e5f", timestamp: at, cwd: workspace },
        message("a0000001", null, { role: "user", content: "old question" }),
        message("a0000002", "a0000001", {
          role: "assistant",
          content: [{ type: "text", text: "old answer" }],
          stopReason: "stop",
        }),
        message("a0000003", "a0000002", { role: "user", content: "kept question" }),
        message("a0000004", "a0000003", {
          role: "assistant",
          content: [{ type: "text", text: "kept answer" }],
          stopReason: "stop",
        }),
        {
          type: "compaction",
          id: "a0000005",
          parentId: "a0000004",
          timestamp: at,
          summary: "Pi's own summary: the user asked about the old thing.",
          firstKeptEntryId: "a0000003",
          tokensBefore: 5000,
          details: { readFiles: ["README.md"], modifiedFiles: [] },
        },
        message("a0000006", "a0000005", { role: "user", content: "after compaction" }),
        message("a0000007", "a0000006", {
          role: "assistant",
          content: [{ type: "text", text: "noted" }],
          stopReason: "stop",
        }),
      ];
      await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", "--resume", file, "new question"],
        workspace,
      );
      assert.equal(result.code, 0, result.stderr);
      const sent = server.requests[0].messages.map((entry: { role: string; content: string }) => [
        entry.role,
        entry.content,
      ]);
      assert.deepEqual(sent.slice(1), [
        ["user", `${SUMMARY_PREFIX}Pi's own summary: the user asked about the old thing.\n</summary>`],
        ["user", "kept question"],
        ["assistant", "kept answer"],
        ["user", "after compaction"],
        ["assistant", "noted"],
        ["user", "new question"],
      ]);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 服务器在 /v1/models 报告窗口（vLLM 的 max_model_len）：开头一行说出窗口与来源，并按它压缩", async () => {
  const models = { object: "list", data: [{ id: "m", object: "model", max_model_len: 800 }] };
  const server = await startChatServer(
    [toolCallReply("call_readme", "read", { path: "README.md" }), summaryReply(), textReply(["项目名是 tiny-pi。"])],
    { models },
  );
  try {
    await withWorkspace(async (workspace) => {
      await writeFile(path.join(workspace, "README.md"), bigReadme);
      const file = await twoInteractions(workspace);
      const result = await runCli(
        [
          "--base-url",
          server.baseURL,
          "--model",
          "m",
          "--reserve",
          "100",
          "--resume",
          file,
          "What is the project called?",
        ],
        workspace,
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /^上下文窗口 800 token（服务器 \/v1\/models 报告的 max_model_len），其中 100 留给回答/m,
      );
      assert.equal(server.requests.length, 3, "按服务器的窗口压缩了一次");
      assert.equal(server.requests[1].tools, undefined);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi --context-window / --reserve 取值有误：一行说明怎么改，退出码 2，不运行", async () => {
  await withWorkspace(async (workspace) => {
    for (const [args, pattern] of [
      [
        ["--context-window", "0"],
        /^--context-window 要一个 ≥ 1 的整数（token 数，收到 "0"），例如 --context-window 32768。$/,
      ],
      [["--context-window", "8k"], /^--context-window 要一个 ≥ 1 的整数/],
      [["--reserve", "1.5"], /^--reserve 要一个 ≥ 0 的整数（token 数，收到 "1.5"）/],
      [
        ["--context-window", "4096", "--reserve", "4096"],
        /^--reserve 4096 不小于 --context-window 4096：.*例如 --reserve 1024。$/,
      ],
    ] as const) {
      const result = await runCli([...args, "hi"], workspace);
      assert.equal(result.code, 2, result.stderr);
      assert.ok(isOneLine(result.stderr), result.stderr);
      assert.match(result.stderr.trim(), pattern);
    }
  });
});

test("tiny-pi REPL 的 /compact [要求]：按需压缩，摘要请求带上要求；下一条输入从摘要开始；只有一轮时说明没有可压缩的", {
  skip: ptyUnavailable(),
}, async (t) => {
  const server = await startChatServer([
    textReply(["first answer"]),
    textReply(["second answer"]),
    summaryReply(),
    textReply(["third answer"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      const pty = startOnPty(["--base-url", server.baseURL, "--model", "m"], workspace, cliEnv());
      t.after(() => pty.stop());
      await pty.waitFor("上下文窗口未知");
      await pty.waitFor(PROMPT);
      pty.type("/compact\r");
      await pty.waitFor("（没有可以压缩的较早对话：最新的一轮总是原样保留）");
      assert.equal(server.requests.length, 0, "没有对话时不发请求");
      await pty.ask("first question", "first answer");
      await pty.ask("second question", "second answer");
      pty.type("/compact keep the names\r");
      await pty.waitFor("（上下文已压缩：约 ");
      await pty.ask("third question", "third answer");
      assert.equal(await pty.leave(), 0, pty.screen());

      const [, , summarising, after] = server.requests;
      assert.match(summarising.messages[1].content, /\[用户\] first question\n\[助手\] first answer/);
      assert.equal(summarising.messages[1].content.includes("second question"), false, "最新的一轮不进摘要");
      assert.match(summarising.messages[1].content, /<额外要求>\nkeep the names\n<\/额外要求>/);
      assert.deepEqual(
        after.messages
          .map((message: { role: string; content: string }) => [message.role, message.content.slice(0, 20)])
          .slice(1),
        [
          ["user", SUMMARY_PREFIX.slice(0, 20)],
          ["user", "second question"],
          ["assistant", "second answer"],
          ["user", "third question"],
        ],
      );
      const [file] = await sessionFiles(workspace);
      const compactions = (await entries(file as string)).filter((entry) => entry.type === "compaction");
      assert.equal(compactions.length, 1);
    });
  } finally {
    await server.close();
  }
});

test("tiny-pi 摘要占掉了保留的交互的位置：那一段再压缩一次（摘要请求带上更早的摘要），不会悄悄地不发送", async () => {
  const bulky = { ...summary, criticalContext: ["the runtime keeps every call with its result. ".repeat(30)] };
  const server = await startChatServer([textReply([JSON.stringify(bulky)]), summaryReply(), textReply(["好的。"])]);
  try {
    await withWorkspace(async (workspace) => {
      const file = path.join(workspace, "three.jsonl");
      const at = 1764583200000;
      const ids = await writeSession(
        file,
        ["first", "second", "third"].flatMap((topic) => [
          { role: "user", content: `${topic} question`, timestamp: at },
          {
            role: "assistant",
            content: [{ type: "text", text: longAnswer(topic) }],
            stopReason: "stop",
            timestamp: at,
          },
        ]),
      );
      const result = await runCli(
        ["--base-url", server.baseURL, "--model", "m", ...window, "--resume", file, "short one"],
        workspace,
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.length, 3, "两次摘要请求，然后是真正的请求");
      const [first, second, last] = server.requests;
      assert.match(first.messages[1].content, /\[用户\] first question[\s\S]*\[用户\] second question/);
      assert.equal(first.messages[1].content.includes("third question"), false, "第一次只摘要放不下的部分");
      assert.match(second.messages[1].content, /<更早的摘要>[\s\S]*<\/更早的摘要>/, "第二次合并第一次的摘要");
      assert.match(second.messages[1].content, /\[用户\] third question/, "以及被挤出去的那一段");
      assert.deepEqual(
        last.messages
          .slice(1)
          .map((message: { role: string; content: string }) => [message.role, message.content.slice(0, 9)]),
        [
          ["user", SUMMARY_PREFIX.slice(0, 9)],
          ["user", "short one"],
        ],
      );
      assert.match(last.messages[1].content, /The project is tiny-pi/, "用的是第二次的摘要");
      const compactions = (await entries(file)).filter((entry) => entry.type === "compaction");
      assert.equal(compactions.length, 2);
      assert.equal(compactions[0].firstKeptEntryId, ids[4], "第一次从 third question 起保留");
      assert.notEqual(compactions[1].firstKeptEntryId, ids[4]);
      assert.equal(compactions[1].parentId, compactions[0].id);
    });
  } finally {
    await server.close();
  }
});
