// Crash safety end to end: tiny-pi killed with SIGKILL in the middle of a tool batch (a `read`
// that has finished beside a `bash` that is still running) leaves a session that --resume
// continues, and every call of the resumed context is paired: a call whose result was never
// persisted gets its paired "interrupted" error result, in the request and in the file, never a
// silent orphan.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startChatServer, textReply, toolCallsReply } from "../cli-support/chat-server.js";
import { killAllIn, processesIn, waitFor } from "../cli-support/processes.js";
import { finished, runCli, sessionFiles, startCli, withWorkspace } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

const linuxOnly = process.platform === "linux" ? undefined : "进程表从 Linux 的 /proc 读取";
/** Chapter 19: the bash's intent was committed before it ran, so recovery cannot know whether it did. */
const INTERRUPTED =
  "Interrupted: this call may or may not have run (tiny-pi stopped after committing its intent and before saving its result). Check its effects before running it again.";

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** Every tool call of an assistant is answered by a tool message right after it, before anything else. */
function assertPairedOnTheWire(messages: WireMessage[]): void {
  messages.forEach((message, index) => {
    const ids = (message.tool_calls ?? []).map((call) => call.id);
    if (ids.length === 0) return;
    const answers: string[] = [];
    for (let next = index + 1; messages[next]?.role === "tool"; next += 1)
      answers.push(messages[next]?.tool_call_id ?? "");
    assert.deepEqual([...answers].sort(), [...ids].sort(), `第 ${index} 条消息的每个调用都紧跟着它的结果`);
  });
}

/** Whether the workspace's session file already holds the answer with the batch. */
function holdsTheBatch(workspace: string): boolean {
  const dir = path.join(workspace, ".tiny-pi", "sessions");
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some(
    (name) => name.endsWith(".jsonl") && readFileSync(path.join(dir, name), "utf8").includes('"call_sleep"'),
  );
}

/** The message entries of a session file, in file order (one branch here). */
async function fileMessages(file: string) {
  const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
  return lines
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.type === "message")
    .map((entry) => entry.message);
}

test("tiny-pi 在工具批次中途被 SIGKILL：会话留得下来，--resume 继续；没保存结果的调用得到成对的 interrupted 错误结果，请求与会话文件里每个调用都成对", {
  skip: linuxOnly,
  timeout: HANG_GUARD_MS,
}, async () => {
  const server = await startChatServer([
    toolCallsReply([
      { id: "call_read", name: "read", args: { path: "README.md" } },
      { id: "call_sleep", name: "bash", args: { command: "sleep 303" } },
    ]),
    textReply(["接着上次继续。"]),
  ]);
  try {
    await withWorkspace(async (workspace) => {
      try {
        const endpoint = ["--base-url", server.baseURL, "--model", "m", "--tools", "read,bash", "--yes"];
        const child = startCli([...endpoint, "读 README，再等一会儿"], workspace);
        const ended = finished(child);
        const sleeping = () => processesIn(workspace).some((line) => /\) sleep 303 $/.test(line));
        // Killed once the batch runs and the answer that asked for it is on disk (the file appears with it).
        await waitFor("the batch to run with its answer saved", () => sleeping() && holdsTheBatch(workspace));
        child.kill("SIGKILL");
        const killed = await ended;
        assert.equal(killed.code, null, killed.stderr);
        await waitFor("the batch's command to end with tiny-pi", () => processesIn(workspace).length === 0, 10_000);

        const [saved, ...others] = await sessionFiles(workspace);
        assert.ok(saved !== undefined && others.length === 0, "被杀之前的会话文件留了下来");
        const before = await fileMessages(saved);
        const readSaved = before.find((message) => message.toolCallId === "call_read");
        assert.equal(
          before.some((message) => message.toolCallId === "call_sleep"),
          false,
          "还在运行的 bash 没有结果写进文件",
        );

        const resumed = await runCli([...endpoint, "--resume", saved, "继续"], workspace);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.ok(resumed.stdout.includes("接着上次继续。"), resumed.stdout);
        const request: WireMessage[] = server.requests[1].messages;
        assert.deepEqual(
          request.map((message) => message.role),
          ["system", "user", "assistant", "tool", "tool", "user"],
          "继续的请求带着被打断的批次",
        );
        assertPairedOnTheWire(request);
        const onWire = (id: string) => request.find((message) => message.tool_call_id === id)?.content;
        assert.equal(onWire("call_sleep"), INTERRUPTED, "没保存结果的调用得到 interrupted 错误结果");
        // The read had finished: its result is the one the file kept, or, if it was not kept, the read
        // run again on recovery (read is replay-safe), never an interrupted one.
        const readText = readSaved?.content?.[0]?.text ?? readFileSync(path.join(workspace, "README.md"), "utf8");
        assert.ok(
          String(onWire("call_read")).includes(readText.trim().split("\n")[0] ?? ""),
          "read 可重放：结果是真实内容",
        );
        assert.notEqual(onWire("call_read"), INTERRUPTED, "可重放的 read 不被标成 interrupted");

        const after = await fileMessages(saved);
        assert.deepEqual(
          after.map((message) => message.role),
          ["user", "assistant", "toolResult", "toolResult", "user", "assistant"],
          "会话文件里批次的每个调用都有结果，接着是新的一轮",
        );
        const sleepResult = after.find((message) => message.toolCallId === "call_sleep");
        assert.equal(sleepResult?.isError, true);
        assert.equal(sleepResult?.content?.[0]?.text, INTERRUPTED);
      } finally {
        killAllIn(workspace);
      }
    });
  } finally {
    await server.close();
  }
});
