// No process tiny-pi started outlives it, however tiny-pi ends: SIGTERM, SIGHUP, two Ctrl-C while
// bash's SIGTERM is being ignored, or SIGKILL of tiny-pi itself. The command ignores SIGTERM and
// also starts a process in a session of its own, out of reach of any process-group kill: only
// tiny-pi's watchdog (src/process/parent-watchdog.ts) finds it, by the token it carries, or on a
// handled signal as a descendant of tiny-pi even without the token.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startChatServer, toolCallReply } from "../cli-support/chat-server.js";
import { killAllIn, processesIn, waitFor } from "../cli-support/processes.js";
import { ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { cliEnv, finished, startCli, withWorkspace } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

const linuxOnly = process.platform === "linux" ? undefined : "进程表从 Linux 的 /proc 读取";
const COMMAND = `setsid sleep 300 & (trap "" TERM; exec sleep 301) & echo started; wait`;
// A process given an empty environment carries no token: only a walk of tiny-pi's descendants,
// while tiny-pi still lives (a handled signal), finds it.
const WITHOUT_TOKEN = `env -i setsid sleep 302 & ${COMMAND}`;
const sleepers = (workspace: string) => processesIn(workspace).filter((line) => /\) sleep 30[012] $/.test(line));

async function withCommandRunning(
  command: string,
  use: (workspace: string, baseURL: string) => Promise<void>,
): Promise<void> {
  const server = await startChatServer([toolCallReply("call-1", "bash", { command })]);
  try {
    await withWorkspace(async (workspace) => {
      try {
        await use(workspace, server.baseURL);
      } finally {
        killAllIn(workspace);
      }
    });
  } finally {
    await server.close();
  }
}

const args = (baseURL: string) => ["--base-url", baseURL, "--model", "m", "--tools", "bash", "--yes", "--no-session"];

for (const [signal, code, command, started, what] of [
  ["SIGTERM", 143, WITHOUT_TOKEN, 3, "忽略 SIGTERM 的、另开会话的、环境被清空的"],
  ["SIGHUP", 129, WITHOUT_TOKEN, 3, "忽略 SIGTERM 的、另开会话的、环境被清空的"],
  ["SIGKILL", null, COMMAND, 2, "忽略 SIGTERM 的、另开会话的"],
] as const) {
  test(`tiny-pi 在 bash 命令运行中收到 ${signal}：它启动的进程（${what}）全部随之结束`, {
    skip: linuxOnly,
    timeout: HANG_GUARD_MS,
  }, async () => {
    await withCommandRunning(command, async (workspace, baseURL) => {
      const child = startCli([...args(baseURL), "运行命令"], workspace);
      const result = finished(child);
      await waitFor("the sleeps to start", () => sleepers(workspace).length === started);
      child.kill(signal);
      const { code: exitCode, stderr } = await result;
      assert.equal(exitCode, code, stderr);
      await waitFor("no process left in the workspace", () => processesIn(workspace).length === 0, 10_000).catch(() =>
        assert.deepEqual(processesIn(workspace), [], "orphans outlived tiny-pi"),
      );
    });
  });
}

test("tiny-pi REPL 在 bash 命令运行中连按两次 Ctrl-C（在 SIGTERM 与 SIGKILL 之间）：退出码 130，没有进程留下", {
  skip: linuxOnly ?? ptyUnavailable(),
  timeout: HANG_GUARD_MS,
}, async (t) => {
  // The first Ctrl-C ends the shell, so a process without the token would have no parent left to
  // find it by: this command's processes all carry it.
  await withCommandRunning(COMMAND, async (workspace, baseURL) => {
    const pty = startOnPty(args(baseURL), workspace, cliEnv());
    t.after(() => pty.stop());
    await pty.waitFor("› ");
    pty.type("运行命令\r");
    await waitFor("the sleeps to start", () => sleepers(workspace).length === 2);
    pty.type("\u0003");
    await pty.waitFor("正在中止这一轮");
    pty.type("\u0003");
    assert.equal(await pty.exited, 130, pty.screen());
    await waitFor("no process left in the workspace", () => processesIn(workspace).length === 0, 10_000).catch(() =>
      assert.deepEqual(processesIn(workspace), [], "orphans outlived tiny-pi"),
    );
  });
});
