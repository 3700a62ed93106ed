import assert from "node:assert/strict";
import { test } from "node:test";
import { LearnerError, RunTimeoutError, runCli, UsageError } from "../lib/usage-error.js";

/** Runs `runCli(main)` with stderr captured and process.exitCode restored afterwards. */
async function captured(
  t: test.TestContext,
  main: () => Promise<void>,
): Promise<{ stderr: string; exitCode: unknown }> {
  const previous = process.exitCode;
  let stderr = "";
  t.mock.method(process.stderr, "write", (chunk: string) => {
    stderr += chunk;
    return true;
  });
  try {
    await runCli(main);
    return { stderr, exitCode: process.exitCode };
  } finally {
    t.mock.restoreAll();
    process.exitCode = previous;
  }
}

test("runCli 把任何 LearnerError（用法错误、运行超时）打印成一行并以 1 退出", async (t) => {
  for (const error of [new UsageError("缺少检查点编号。"), new RunTimeoutError("聚焦测试 2 秒后仍未结束。")]) {
    assert.ok(error instanceof LearnerError);
    const { stderr, exitCode } = await captured(t, async () => {
      throw error;
    });
    assert.equal(stderr, `${error.message}\n`);
    assert.equal(exitCode, 1);
  }
});

test("runCli 不吞掉程序错误：其他异常原样抛出", async (t) => {
  const bug = new TypeError("a bug");
  await assert.rejects(
    captured(t, async () => {
      throw bug;
    }),
    (error) => error === bug,
  );
});
