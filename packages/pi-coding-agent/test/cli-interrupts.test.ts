// Ctrl-C: the first press aborts the running turn through its signal, a second exits. The
// press logic is tested on its own with a fake clock; the abort itself through a real child.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Interrupts, SIGNAL_SAME_PRESS_MS } from "../src/cli/interrupts.js";
import { stallingReply, startChatServer } from "./cli-support/chat-server.js";
import { finished, sessionFiles, sessionMessages, startCli, withWorkspace } from "./cli-support/run-cli.js";

test("Ctrl-C 计数：运行中第一次中止这一轮的 signal，第二次退出；空闲时第一次只提示；npm 转发的同一次按键不算两次", () => {
  let now = 0;
  const interrupts = new Interrupts(SIGNAL_SAME_PRESS_MS, () => now);
  let aborts = 0;
  interrupts.beginTurn(() => {
    aborts += 1;
  });
  assert.equal(interrupts.press(false), "aborted");
  assert.equal(aborts, 1, "第一次按下中止这一轮");
  now += 20;
  assert.equal(interrupts.press(false), "ignored", "20 ms 后的第二个 SIGINT 是同一次按键");
  now += 1000;
  assert.equal(interrupts.press(false), "exit");
  assert.equal(aborts, 1, "同一轮只中止一次");

  const idle = new Interrupts(0, () => now);
  assert.equal(idle.press(false), "armed", "REPL 空闲：先提示");
  idle.disarm();
  assert.equal(idle.press(false), "armed", "输入一行之后重新计数");
  assert.equal(idle.press(false), "exit", "REPL 读按键，不合并紧接的两次");
  assert.equal(new Interrupts(0, () => now).press(true), "exit", "单轮运行还没开始：直接退出");
});

test("tiny-pi 单轮运行中收到 SIGINT：通过 signal 中止请求，以 aborted 结束，退出码 1，已形成的消息写入会话", async () => {
  const server = await startChatServer([stallingReply("我正在想")]);
  try {
    await withWorkspace(async (workspace) => {
      const child = startCli(["--base-url", server.baseURL, "--model", "m", "慢慢回答"], workspace);
      const result = finished(child);
      await new Promise<void>((resolve) => {
        child.stdout?.on("data", (text: string) => {
          if (text.includes("我正在想")) resolve();
        });
      });
      child.kill("SIGINT");
      const { code, stdout, stderr } = await result;
      assert.equal(code, 1, stderr);
      assert.match(stdout, /^我正在想$/m, "中止前流出的文字已经显示");
      assert.match(stdout, /^— aborted · 1 步/m);
      assert.match(stderr, /这一轮已中止（Ctrl-C）/);
      const [file] = await sessionFiles(workspace);
      assert.ok(file !== undefined, "中止的这一轮保留在会话里");
      const messages = await sessionMessages(file);
      assert.deepEqual(
        messages.map((message) => [message.role, message.stopReason]),
        [
          ["user", undefined],
          ["assistant", "aborted"],
        ],
      );
    });
  } finally {
    await server.close();
  }
});
