// The course's payoff, checked on a finished practice tree of the last checkpoint tiny-pi has a
// row for (learner-code.ts): `tiny-pi --from` that tree runs entirely on the learner's code
// (loop, tools, Agent, session store, compaction, resources, extensions, Runtime, exposure, codemode, the
// MCP client that starts the tests' fixture server, the model catalogue, routing and branch state, the
// durable layer the session file is written through),
// against a model server on 127.0.0.1, with a real `read` and `edit` on a temp workspace; the session it wrote is
// resumed. The tree is the one the integrity checks finished (ProveContext), so nothing is made twice.
// That tree was made without --from: its record (.pi-course-practice.json) says only its own chapter
// is the learner's, and the start line says so chapter by chapter; then the record is rewritten as
// a chain carried from chapter 00 writes it, and the line says every part is the learner's.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CODE_ROWS } from "../../packages/pi-coding-agent/src/cli/learner-code.js";
import { PRACTICE_RECORD } from "../../packages/pi-coding-agent/src/cli/practice-record.js";
import { McpClient, StdioTransport } from "../../packages/pi-coding-agent/src/mcp/index.js";
import {
  startChatServer,
  textReply,
  toolCallReply,
} from "../../packages/pi-coding-agent/test/cli-support/chat-server.js";
import { type CliResult, cliEnv, finished } from "../../packages/pi-coding-agent/test/cli-support/run-cli.js";
import { type Checkpoint, loadManifest, repoRoot } from "../lib/course/manifest.js";
import type { ProveContext } from "../lib/prove/prove-context.js";
import { buildTree } from "../lib/run/focused-run.js";

/** The checkpoint of tiny-pi's last row: its finished tree holds every chapter tiny-pi can take. */
export function lastRowCheckpoint(checkpoints: readonly Checkpoint[]): Checkpoint | undefined {
  const last = CODE_ROWS.at(-1)?.checkpoint;
  return checkpoints.find((checkpoint) => checkpoint.id === last);
}

/** The tests' MCP fixture server, built with the repository (chapter 17's client starts it from the practice tree). */
const mcpFixture = path.join(repoRoot, "packages/pi-coding-agent/dist/test/mcp-fixture/server.js");

/** The built tiny-pi (npm run test:course builds first). */
const cliPath = path.join(repoRoot, "packages/pi-coding-agent/dist/src/cli/main.js");

/** How many tools the fixture lists, asked of it by the repository's own MCP client: the count the learner's client must report. */
async function fixtureToolCount(): Promise<number> {
  const client = await McpClient.connect(new StdioTransport({ command: process.execPath, args: [mcpFixture] }));
  try {
    return (await client.listTools()).length;
  } finally {
    await client.close();
  }
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return finished(
    spawn(process.execPath, [cliPath, ...args], { cwd, env: cliEnv(env), stdio: ["ignore", "pipe", "pipe"] }),
  );
}

/**
 * Chapter 19 on the learner's code: tiny-pi killed between a read's committed intent and its
 * execute() (the chaos test's TINY_PI_KILL_AT), then --resume with no prompt: the learner's
 * recovery re-runs the read and the learner's Runtime goes on with the task to its answer.
 */
async function checkCrashAndResume(tree: string): Promise<void> {
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tiny-pi-payoff-crash-")));
  const server = await startChatServer([
    toolCallReply("call_crash", "read", { path: "README.md" }),
    textReply(["读完了：项目叫 tiny-pi。"]),
  ]);
  try {
    await writeFile(path.join(workspace, "README.md"), "# tiny-pi\n");
    const endpoint = ["--from", tree, "--base-url", server.baseURL, "--model", "m", "--tools", "read"];
    const killed = await run([...endpoint, "项目叫什么？"], workspace, { TINY_PI_KILL_AT: "intent:1" });
    assert.equal(killed.signal, "SIGKILL", `tiny-pi 在 read 的意图提交之后被杀：${killed.stderr}`);
    const sessions = path.join(workspace, ".tiny-pi", "sessions");
    const [file] = (await readdir(sessions)).filter((name) => name.endsWith(".jsonl"));
    assert.ok(file !== undefined, "被杀之前，你的持久层已经写下了会话文件");
    const resumed = await run([...endpoint, "--resume", path.join(sessions, file)], workspace);
    assert.equal(resumed.code, 0, `--resume 用你的恢复与 Runtime 接着做完任务：${resumed.stderr}`);
    assert.match(resumed.stderr, /重跑了 1 个可重放的调用.*继续未完成的任务/, "恢复一行说出重跑了 read、继续任务");
    assert.match(resumed.stdout, /读完了：项目叫 tiny-pi。/, "继续的任务得到了回答");
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

export async function checkTinyPiOnPractice(checkpoint: Checkpoint, context: ProveContext): Promise<void> {
  const tree = await context.finishedPractice(checkpoint);
  const build = await context.limit(() => buildTree(tree, checkpoint));
  assert.ok(build.ok, `完成的练习目录可以构建：${build.firstError ?? build.output}`);
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tiny-pi-payoff-")));
  const server = await startChatServer([
    toolCallReply("call_read", "read", { path: "README.md" }),
    toolCallReply("call_edit", "edit", {
      path: "README.md",
      edits: [{ oldText: "A small agent runtime.", newText: "A small agent runtime, written by me." }],
    }),
    textReply(["改好了。"]),
    textReply(["刚才把 README 的第二行改成了你写的 agent。"]),
  ]);
  try {
    await writeFile(path.join(workspace, "README.md"), "# tiny-pi\nA small agent runtime.\n");
    // Started at this chapter without --from: every earlier chapter in the tree is the course's reference.
    const started = await run(["--from", tree, "--no-session", "-p", "项目叫什么？"], workspace);
    assert.equal(started.code, 0, started.stderr);
    assert.match(
      started.stderr,
      /^.* 里你写的：持久（19）提交日志与恢复；课程的参考实现（建练习目录时带进来的）：provider（05）openAICompatibleModel.*、loop（07）runAgentLoop、工具（08）[a-z,]+、会话（10）JsonlSessionStore、压缩（11）buildContext、资源（12）discoverResources、Runtime（13）openRuntime、工具暴露（15）ExposedRegistry、tool_search、codemode（16）createCodeTool、MCP（17）McpClient、StdioTransport、mcpTools、模型（18）目录与路由$/m,
      "没有 --from 建的练习目录：开头一行按章说出哪些是你的、哪些是课程的参考实现，不说“全部是你自己写的”",
    );
    // The record a chain carried from chapter 00 with --from writes: every chapter is the learner's.
    const record = path.join(tree, PRACTICE_RECORD);
    const written = JSON.parse(await readFile(record, "utf8")) as Record<string, unknown>;
    const chain = loadManifest().checkpoints.map((item) => item.id);
    await writeFile(record, JSON.stringify({ ...written, learner: chain.slice(0, chain.indexOf(checkpoint.id) + 1) }));
    // An MCP server the learner's client (chapter 17) starts, initialises and lists: the fixture of the tests.
    await mkdir(path.join(workspace, ".tiny-pi"), { recursive: true });
    await writeFile(
      path.join(workspace, ".tiny-pi", "mcp.json"),
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [mcpFixture] } } }),
    );
    const endpoint = [
      "--from",
      tree,
      "--base-url",
      server.baseURL,
      "--model",
      "m",
      "--tools",
      "read,edit",
      "--yes",
      "--trust-mcp",
    ];
    const first = await run([...endpoint, "读 README，再改第二行"], workspace);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stderr,
      /^全部是 .* 里你自己写的代码：provider（05）openAICompatibleModel、loop（07）runAgentLoop、工具（08）read,edit、会话（10）JsonlSessionStore、压缩（11）buildContext、资源（12）discoverResources、Runtime（13）openRuntime、工具暴露（15）ExposedRegistry、tool_search、codemode（16）createCodeTool、MCP（17）McpClient、StdioTransport、mcpTools、模型（18）目录与路由、持久（19）提交日志与恢复$/m,
      "开头一行说出全部是你写的代码",
    );
    const tools = await fixtureToolCount();
    assert.ok(
      first.stderr.includes(`已启动 MCP 服务器：fixture（${tools} 个工具）`),
      `你的 MCP 客户端启动了服务器、握手并列出它的全部 ${tools} 个工具：${first.stderr}`,
    );
    assert.ok(first.stdout.includes("改好了。"), first.stdout);
    assert.equal(
      await readFile(path.join(workspace, "README.md"), "utf8"),
      "# tiny-pi\nA small agent runtime, written by me.\n",
      "你的 edit 真的改了工作区里的文件",
    );
    const read = server.requests[1].messages.find(
      (message: { tool_call_id?: string }) => message.tool_call_id === "call_read",
    );
    assert.match(read.content, /^# tiny-pi/, "你的 read 读到了真实的文件");
    const sessions = path.join(workspace, ".tiny-pi", "sessions");
    const [file] = (await readdir(sessions)).filter((name) => name.endsWith(".jsonl"));
    assert.ok(file !== undefined, "你的会话存储写下了会话文件");
    // Chapter 19: the file was written through the learner's durable layer: a task and an intent per call.
    const records = (await readFile(path.join(sessions, file), "utf8"))
      .split("\n")
      .filter((line) => line.includes('"customType":"tiny-pi/durable"'))
      .map((line) => JSON.parse(line).data as { kind: string; state?: string; callId?: string });
    assert.deepEqual(
      records.filter((data) => data.kind === "task").map((data) => data.state),
      ["pending", "running", "completed"],
      "你的持久层记下了这一轮的任务：pending、running、completed",
    );
    assert.deepEqual(
      records.filter((data) => data.kind === "intent").map((data) => data.callId),
      ["call_read", "call_edit"],
      "你的持久层在每个调用执行之前提交了它的意图",
    );

    const resumed = await run([...endpoint, "--resume", path.join(sessions, file), "-p", "刚才改了什么？"], workspace);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, "刚才把 README 的第二行改成了你写的 agent。\n", "-p 只打印最终回答");
    const roles = server.requests[3].messages.map((message: { role: string }) => message.role);
    assert.deepEqual(
      roles,
      ["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "user"],
      "继续的请求带着上次的整段对话",
    );
    await checkCrashAndResume(tree);
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
}
