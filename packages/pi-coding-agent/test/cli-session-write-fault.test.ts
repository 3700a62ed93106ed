// A disk that is full when tiny-pi creates a session file. `ulimit -f 0` (with SIGXFSZ ignored,
// so a write past the limit fails with EFBIG instead of killing the process) stands in for a
// full disk on any POSIX system without mounting one. Before this change the failed header left
// an empty session file behind, which --resume and `tiny-pi sessions` then refused as not a session.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { cliEnv, cliPath, finished, isOneLine, runCli, sessionFiles, withWorkspace } from "./cli-support/run-cli.js";

test("创建会话文件时磁盘写不进（ulimit -f 0）：一行写出文件与错误，不留下空的会话文件", {
  skip: process.platform === "win32" ? "ulimit 只在 POSIX shell 里有" : false,
}, async () => {
  await withWorkspace(async (workspace) => {
    const child = spawn("/bin/sh", ["-c", `trap '' XFSZ; ulimit -f 0; exec "${process.execPath}" "${cliPath}"`], {
      cwd: workspace,
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const result = await finished(child);
    const note = result.stderr.split("\n").find((line) => line.includes("无法创建会话文件")) ?? "";
    assert.match(note, /无法创建会话文件 .*\.jsonl（EFBIG）/, result.stderr);
    assert.deepEqual(await sessionFiles(workspace), [], "没有留下空的会话文件");
    const listed = await runCli(["sessions"], workspace);
    assert.ok(isOneLine(listed.stdout), listed.stdout);
    assert.match(listed.stdout, /还没有会话/);
  });
});
