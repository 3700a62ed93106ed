// A disk that is full when tiny-pi creates a session file. `ulimit -f 0` (with SIGXFSZ ignored,
// so a write past the limit fails with EFBIG instead of killing the process) stands in for a
// full disk on any POSIX system without mounting one. Before this change the failed header left
// an empty session file behind, which --resume and `tiny-pi sessions` then refused as not a session.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { cliEnv, cliPath, finished, isOneLine, runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

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

test("会话写到一半磁盘满了（ulimit -f 1，最后一行没写完）：结束时不说 --resume，而说 --fork，--fork 从已提交的条目接着走", {
  skip: process.platform === "win32" ? "ulimit 只在 POSIX shell 里有" : false,
}, async () => {
  await withWorkspace(async (workspace) => {
    const child = spawn("/bin/sh", ["-c", `trap '' XFSZ; ulimit -f 1; exec "${process.execPath}" "${cliPath}"`], {
      cwd: workspace,
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const result = await finished(child);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined, result.stderr);
    assert.notEqual((await readFile(file)).at(-1), 0x0a, "512 字节的上限把一行截在中间");
    const last = result.stderr.trim().split("\n").at(-1) ?? "";
    assert.match(
      last,
      /^会话：.*（最后一行没有写完：用 --fork .*\.jsonl 从已提交的条目开一个新会话继续）$/,
      result.stderr,
    );
    const forked = await runCli(["--fork", file, "再来"], workspace);
    assert.equal(forked.code, 0, forked.stderr);
    assert.match(forked.stderr, /用 --resume 继续/);
  });
});
