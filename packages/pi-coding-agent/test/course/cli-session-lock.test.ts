// The one-writer lock of a session file when its path is not a lock file: a folder there gave
// "tiny-pi 出错：EISDIR: illegal operation on a directory, read". A real child process.
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import { isOneLine, runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

test("锁的位置是一个文件夹：一行说明删掉它，退出码 2，会话文件不变", async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    await mkdir(`${file}.lock`);
    const before = await readFile(file, "utf8");
    const resumed = await runCli(["--resume", file, "再问一次"], workspace);
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.ok(isOneLine(resumed.stderr), resumed.stderr);
    assert.match(resumed.stderr, /的锁 .*\.lock 不是 tiny-pi 写的锁文件（它不是普通文件）：.*删掉它/);
    assert.equal(await readFile(file, "utf8"), before, "文件不变");
  });
});
