// Sessions move between tiny-pi and the real upstream Pi 0.73.1 (the root devDependency), both
// pointed at one OpenAI-compatible server on 127.0.0.1. Pi, driven in RPC mode, writes a session
// with everything its users write every day: a `!command` (RPC bash), a compaction, a session name,
// a branch with a summary, a custom entry and a custom message (a small extension writes the last
// three), and an image in a user message. tiny-pi --resumes it and sends what Pi itself sends for
// the same file, request by request; tree and export show every entry. The reverse: a file tiny-pi
// wrote opens in Pi's RPC mode (get_session_stats) and in its interactive mode on a pseudo-terminal.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { type ChatServer, startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { MODEL, PI_ARGS, PI_CLI, piEnvironment, piUnavailable, runPi, startPiRpc } from "../cli-support/pi-upstream.js";
import { ptyUnavailable } from "../cli-support/pty.js";
import { cliEnv, runCli, sessionEntries, sessionFiles } from "../cli-support/run-cli.js";

const skip = piUnavailable();
/** A 1×1 PNG's first bytes: the server never decodes it, both agents only carry it. */
const PNG = "iVBORw0KGgo=";

/** The extension Pi loads: /interop ID navigates to ID with a summary, then persists a custom entry and injects a custom message. */
const EXTENSION = `export default function (pi) {
  pi.registerCommand("interop", {
    description: "interop test: a branch with a summary, a custom entry and a custom message",
    handler: async (args, ctx) => {
      await ctx.navigateTree(args.trim(), { summarize: true });
      pi.appendEntry("interop-state", { count: 1 });
      pi.sendMessage({ customType: "interop-note", content: "A note from the extension.", display: true });
    },
  });
}
`;

type Entry = { type: string; id: string; parentId: string | null; message?: Record<string, unknown> } & Record<
  string,
  unknown
>;

let home: string;
let server: ChatServer;
let env: NodeJS.ProcessEnv;
/** The session Pi wrote. */
let piFile: string;

before(async () => {
  if (skip !== undefined) return;
  home = await mkdtemp(path.join(os.tmpdir(), "pi-interop-"));
  // Every request gets a short text answer with its own token counts.
  server = await startChatServer(
    Array.from({ length: 40 }, (_, index) => textReply([`answer ${index + 1}`], { input: 100 + index, output: 10 })),
  );
  env = await piEnvironment(home, server.baseURL);
  const work = path.join(home, "work");
  await mkdir(work);
  await writeFile(path.join(home, "interop.ts"), EXTENSION);
  const pi = startPiRpc(
    ["--session-dir", path.join(home, "pi-sessions"), "-e", path.join(home, "interop.ts")],
    work,
    env,
  );
  try {
    const prompt = async (message: string, images?: object[]) => {
      const end = pi.next("agent_end");
      await pi.send({ type: "prompt", message, ...(images !== undefined ? { images } : {}) });
      await end;
    };
    await prompt("first question");
    await pi.send({ type: "bash", command: "echo interop-bash" });
    await prompt("second question");
    await pi.send({ type: "compact" });
    await pi.send({ type: "set_session_name", name: "interop" });
    await prompt("third question");
    const state = (await pi.send({ type: "get_state" })) as { data: { sessionFile: string } };
    piFile = state.data.sessionFile;
    // The branch goes back to the session name (after the compaction) and leaves the third question behind.
    const named = (await sessionEntries<Entry>(piFile)).find((entry) => entry.type === "session_info");
    await pi.send({ type: "prompt", message: `/interop ${named?.id}` });
    // The command's response may come before its last entry is written: wait for that entry, however long.
    while (!(await sessionEntries<Entry>(piFile)).some((entry) => entry.type === "custom_message")) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await prompt("what is in this image?", [{ type: "image", data: PNG, mimeType: "image/png" }]);
  } finally {
    await pi.stop();
  }
});

after(async () => {
  if (skip !== undefined) return;
  await server.close();
  await rm(home, { recursive: true, force: true });
});

/** A request's messages without the system prompt, a user's text-only parts joined as tiny-pi joins them. */
function sentMessages(body: { messages: { role: string; content: unknown }[] }): unknown[] {
  return body.messages
    .filter((message) => message.role !== "system")
    .map((message) => {
      const { content } = message;
      if (!Array.isArray(content) || !content.every((part) => part.type === "text")) return message;
      return { ...message, content: content.map((part) => part.text).join("\n") };
    });
}

test("Pi 写的会话包含每种条目：bashExecution、compaction、session_info、branch_summary、custom、custom_message 与带图片的 user", {
  skip,
}, async () => {
  const entries = await sessionEntries<Entry>(piFile);
  const kinds = entries.map((entry) =>
    entry.type === "message" ? `message:${String(entry.message?.role)}` : entry.type,
  );
  for (const kind of [
    "message:bashExecution",
    "compaction",
    "session_info",
    "branch_summary",
    "custom",
    "custom_message",
  ]) {
    assert.ok(kinds.includes(kind), `Pi 写了 ${kind}：${kinds.join(", ")}`);
  }
  assert.ok(
    entries.some((entry) => JSON.stringify(entry.message?.content ?? "").includes('"type":"image"')),
    "一条 user 消息带 image 块",
  );
});

test("tiny-pi --resume Pi 的会话：发出的请求与 Pi 自己继续同一个文件时发出的一致（逐个请求比较）", {
  skip,
}, async () => {
  const piCopy = path.join(home, "for-pi.jsonl");
  const tinyCopy = path.join(home, "tiny", ".tiny-pi", "sessions", "for-tiny-pi.jsonl");
  await mkdir(path.dirname(tinyCopy), { recursive: true });
  await copyFile(piFile, piCopy);
  await copyFile(piFile, tinyCopy);
  const before = await readFile(tinyCopy, "utf8");

  let first = server.requests.length;
  const pi = await runPi(["--session", piCopy, "-p", "next question"], path.join(home, "work"), env);
  assert.equal(pi.code, 0, pi.stderr);
  const piRequests = server.requests.slice(first);

  first = server.requests.length;
  const tiny = await runCli(
    ["--base-url", server.baseURL, "--model", MODEL, "--resume", tinyCopy, "-p", "next question"],
    path.join(home, "tiny"),
    cliEnv(),
  );
  assert.equal(tiny.code, 0, tiny.stderr);
  const tinyRequests = server.requests.slice(first);

  assert.equal(tinyRequests.length, piRequests.length, "请求个数相同");
  for (const [index, piRequest] of piRequests.entries()) {
    assert.deepEqual(
      sentMessages(tinyRequests[index]),
      sentMessages(piRequest),
      `第 ${index + 1} 个请求的消息与 Pi 的一致：bashExecution、branch_summary、custom_message 是 user 消息，custom 不发送，图片是 image_url`,
    );
  }
  const sent = JSON.stringify(tinyRequests[0].messages);
  assert.ok(sent.includes(`data:image/png;base64,${PNG}`), "图片作为 image_url 发出");
  assert.ok(!sent.includes("interop-state"), "custom 条目不发送");
  const after = await readFile(tinyCopy, "utf8");
  assert.ok(after.startsWith(before), "Pi 写的字节原样保留，新条目追加在后面");
});

test("tiny-pi tree 与 export 显示 Pi 会话的每个条目", { skip }, async () => {
  const ids = (await sessionEntries<Entry>(piFile)).map((entry) => entry.id);
  const tree = await runCli(["tree", piFile], home, cliEnv());
  assert.equal(tree.code, 0, tree.stderr);
  for (const id of ids) assert.ok(tree.stdout.includes(id), `tree 显示条目 ${id}：\n${tree.stdout}`);
  for (const kind of ["bashExecution", "branch_summary", "custom ", "custom_message"]) {
    assert.ok(tree.stdout.includes(kind), `tree 用 Pi 的名字显示 ${kind}`);
  }
  const page = path.join(home, "pi-session.html");
  const exported = await runCli(["export", piFile, "--out", page], home, cliEnv());
  assert.equal(exported.code, 0, exported.stderr);
  const html = await readFile(page, "utf8");
  for (const id of ids) assert.ok(html.includes(id), `export 的页面包含条目 ${id}`);
});

test("Pi 打开 tiny-pi 写的会话：RPC 的 get_session_stats 成功，消息数与 token 合计正确；交互模式在伪终端里启动无错", {
  skip,
}, async (t) => {
  const workspace = path.join(home, "tiny-written");
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, "README.md"), "# tiny-pi\n");
  const local = await startChatServer([
    toolCallReply("call_readme", "read", { path: "README.md" }, { input: 31, output: 12 }),
    textReply(["项目名是 tiny-pi。"], { input: 58, output: 7 }),
    textReply(["好的。"], { input: 70, output: 3 }),
  ]);
  try {
    const base = ["--base-url", local.baseURL, "--model", MODEL];
    const first = await runCli([...base, "-p", "项目名？"], workspace, cliEnv());
    assert.equal(first.code, 0, first.stderr);
    const [file] = await sessionFiles(workspace);
    const second = await runCli([...base, "--resume", file as string, "-p", "谢谢"], workspace, cliEnv());
    assert.equal(second.code, 0, second.stderr);

    const pi = startPiRpc(["--session", file as string], workspace, env);
    let stats: { totalMessages: number; userMessages: number; assistantMessages: number; tokens: object };
    try {
      stats = ((await pi.send({ type: "get_session_stats" })) as { data: typeof stats }).data;
    } finally {
      await pi.stop();
    }
    assert.deepEqual(
      [stats.userMessages, stats.assistantMessages, stats.totalMessages],
      [2, 3, 6],
      "2 条 user、3 条 assistant、1 条 toolResult",
    );
    assert.deepEqual(
      stats.tokens,
      { input: 31 + 58 + 70, output: 12 + 7 + 3, cacheRead: 0, cacheWrite: 0, total: 31 + 58 + 70 + 12 + 7 + 3 },
      "token 合计是服务器报告的数",
    );

    const reason = ptyUnavailable();
    if (reason !== undefined) {
      t.diagnostic(`跳过交互模式：${reason}`);
      return;
    }
    const screen = await piInteractiveFirstScreen(file as string, workspace);
    t.diagnostic("Pi 交互模式的第一屏：");
    for (const line of screen.text.split("\n")) if (line.trim() !== "") t.diagnostic(line.trimEnd());
    assert.ok(screen.ready, `Pi 的交互模式显示了页脚（模型名）：\n${screen.text}`);
    assert.doesNotMatch(screen.text, /TypeError|Cannot read properties|Error:/, "没有错误");
  } finally {
    await local.close();
  }
});

/** Pi's interactive mode on `file` under util-linux `script`: its first screen (escapes removed), then Ctrl-C twice. */
async function piInteractiveFirstScreen(file: string, cwd: string): Promise<{ text: string; ready: boolean }> {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, PI_CLI, ...PI_ARGS, "--session", file].map(quote).join(" ");
  const child = spawn("script", ["-qefc", command, "/dev/null"], {
    cwd,
    env: { ...env, TERM: "xterm-256color", COLUMNS: "100", LINES: "30" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const text = () =>
    raw
      // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escapes are what is being removed
      .replace(/\u001b\[[0-9;?<=>]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][A-Z0-9]|\u001b[=>]/g, "")
      .replace(/\r/g, "");
  const shown = new Promise<boolean>((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      raw += chunk;
      if (text().includes(MODEL)) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  const ready = await shown;
  child.stdin.write("\u0003");
  child.stdin.write("\u0003");
  const timer = setTimeout(() => child.kill("SIGTERM"), 10_000);
  await exited;
  clearTimeout(timer);
  return { text: text(), ready };
}
