// Sessions are written inside the learner's project: `.tiny-pi/.gitignore` keeps `git add .` from
// committing them, checked with real git in a real repository.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

const git = (cwd: string, ...args: string[]) => spawnSync("git", args, { cwd, encoding: "utf8" });
const noGit = git(".", "--version").status === 0 ? undefined : "需要 git";

test("tiny-pi 写会话时在 .tiny-pi/ 里放一个 .gitignore：git add . 不收进任何会话；已有的 .gitignore 不被改写", {
  skip: noGit,
}, async () => {
  await withWorkspace(async (workspace) => {
    assert.equal(git(workspace, "init", "-q").status, 0);
    const run = await runCli([], workspace);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await sessionFiles(workspace)).length, 1);
    assert.match(await readFile(path.join(workspace, ".tiny-pi", ".gitignore"), "utf8"), /^\*$/m);
    assert.equal(git(workspace, "add", ".").status, 0);
    const staged = git(workspace, "diff", "--cached", "--name-only").stdout.trim().split("\n");
    assert.deepEqual(staged, ["README.md"], "只有项目自己的文件");

    await writeFile(path.join(workspace, ".tiny-pi", ".gitignore"), "mine\n");
    assert.equal((await runCli([], workspace)).code, 0);
    assert.equal(await readFile(path.join(workspace, ".tiny-pi", ".gitignore"), "utf8"), "mine\n");
  });
});

test("--resume 一个还没有 .gitignore 的会话（写于 tiny-pi 加上它之前）：继续写入时补上 .tiny-pi/.gitignore", {
  skip: noGit,
}, async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0, "先写一个会话");
    await rm(path.join(workspace, ".tiny-pi", ".gitignore"));
    const [file] = await sessionFiles(workspace);
    assert.ok(file, "有一个会话文件");
    const run = await runCli(["--resume", file], workspace);
    assert.equal(run.code, 0, run.stderr);
    assert.match(await readFile(path.join(workspace, ".tiny-pi", ".gitignore"), "utf8"), /^\*$/m);
  });
});
