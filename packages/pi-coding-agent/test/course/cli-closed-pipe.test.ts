// tiny-pi's output read by a program that stops reading (`tiny-pi … | head -c 1`): before this
// change the write failed with EPIPE as an unhandled 'error' event, a stack trace on stderr. Now
// tiny-pi ends quietly, like a shell tool whose reader went away (128 + SIGPIPE), leaving nothing.
import assert from "node:assert/strict";
import { constants } from "node:os";
import { test } from "node:test";
import { finished, runCli, sessionFiles, startCli, withWorkspace } from "../cli-support/run-cli.js";

const CLOSED_PIPE_EXIT = 128 + (constants.signals.SIGPIPE ?? 13);

/** Runs tiny-pi with its stdout's reading end closed before it writes a byte. */
async function withClosedStdout(args: string[], workspace: string) {
  const child = startCli(args, workspace);
  child.stdout?.destroy();
  return finished(child);
}

test("stdout 的读端已关闭（tiny-pi … | head -c 1）：一轮运行安静地结束，退出码 141，标准错误里没有栈", async () => {
  await withWorkspace(async (workspace) => {
    const result = await withClosedStdout(["--no-session"], workspace);
    assert.doesNotMatch(result.stderr, /^\s+at |Unhandled 'error' event|EPIPE/m, result.stderr);
    assert.equal(result.code, CLOSED_PIPE_EXIT, result.stderr);
  });
});

test("stdout 的读端已关闭时的 tiny-pi tree FILE：安静地结束，退出码 141，没有栈", async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    const result = await withClosedStdout(["tree", file], workspace);
    assert.doesNotMatch(result.stderr, /^\s+at |Unhandled 'error' event|EPIPE/m, result.stderr);
    assert.equal(result.code, CLOSED_PIPE_EXIT, result.stderr);
  });
});
