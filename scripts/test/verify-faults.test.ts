// verify picks the learner's practice directory, not a half-written temp folder or a copy, and a
// broken practice tree is told in one line that names the fix: a package.json that is not JSON,
// missing node_modules links, the focused test's source deleted. `demo --json | head -1` just stops.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, unlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { UsageError } from "../lib/usage-error.js";
import { practiceDirs, resolvePracticeDir } from "../lib/verify/verify-dir.js";
import { verifyTree } from "../lib/verify/verify-labs.js";

const checkpoint = findCheckpoint("07");
const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-verify-faults-"));
after(() => rm(holder, { recursive: true, force: true }));

/** A fresh practice tree named `name` under `holder`. */
async function practiceTree(name: string): Promise<string> {
  const dir = path.join(holder, name);
  await writeCheckpointTree(checkpoint, "practice", dir);
  return dir;
}

async function assertOneLine(attempt: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof UsageError, `UsageError, got ${String(error)}`);
    assert.match(error.message, message);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}

test("verify 不给目录：不选半写成的隐藏临时目录，也不选学习者复制出来的目录，只选 practice 创建完成的", async () => {
  const root = await mkdtemp(path.join(holder, "root-"));
  const made = path.join(root, "07");
  await writeCheckpointTree(checkpoint, "practice", made);
  // Newer than the learner's directory: an interrupted run's temp folder and a backup copy.
  await cp(made, path.join(root, ".07-2.tmp-pid1-abcdef"), { recursive: true, verbatimSymlinks: true });
  await cp(made, path.join(root, "07-backup"), { recursive: true, verbatimSymlinks: true });
  const later = new Date(Date.now() + 60_000);
  for (const name of [".07-2.tmp-pid1-abcdef", "07-backup"]) await utimes(path.join(root, name), later, later);

  assert.deepEqual(practiceDirs(checkpoint, root), [made]);
  assert.equal(resolvePracticeDir(checkpoint, undefined, repoRoot, root), made);
});

test("练习目录的 package.json 不是合法 JSON：说哪个文件坏了，而不是编译错误或“不是练习目录”", async () => {
  const dir = await practiceTree("corrupt-json");
  await writeFile(path.join(dir, "package.json"), '{ "name": "pi-course-practice-07",\n');
  assert.throws(
    () => resolvePracticeDir(checkpoint, dir, holder, holder),
    (error: unknown) =>
      error instanceof UsageError && /package\.json 不是合法的 JSON.*请修好这个文件/.test(error.message),
  );
  const inPackage = await practiceTree("corrupt-package-json");
  await writeFile(path.join(inPackage, "packages/pi-course/package.json"), "{ oops");
  await assertOneLine(verifyTree(inPackage, checkpoint), /pi-course[\\/]package\.json 不是合法的 JSON/);
});

test("node_modules 链接缺失：说“链接缺失，请重新创建”，而不是 npm 的生命周期错误", async () => {
  const dir = await practiceTree("no-links");
  await rm(path.join(dir, "node_modules"), { recursive: true });
  await assertOneLine(
    verifyTree(dir, checkpoint),
    /^这个练习目录的 node_modules 链接缺失（.*typescript.*）：请用 npm run practice -w @pi\/course -- 07 重新创建它/,
  );
});

test("聚焦测试的源文件被删除后运行 verify：一行说明，退出码 1，没有堆栈", async () => {
  const dir = await practiceTree("no-focused-test");
  await unlink(path.join(dir, ...checkpoint.focusedTest.split("/")));
  const { code, output } = await runNode(["--import", "tsx", "scripts/verify.ts", "07", dir], repoRoot);
  assert.equal(code, 1, output);
  const lines = output.trim().split(/\r?\n/);
  assert.equal(lines.length, 1, output);
  assert.match(lines[0] ?? "", /^练习目录里没有聚焦测试的源文件 packages\/pi-course\/test\/07-agent-loop\.test\.ts：/);
});

test("npm run demo -- --json | head -1：读的一方关闭后输出就停止，退出码 0，没有 EPIPE 堆栈", async () => {
  const demo = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts", "--json"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  demo.stdout.destroy(); // the reader is gone before the first line is written
  let stderr = "";
  demo.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => demo.on("close", resolve));
  assert.equal(stderr, "");
  assert.equal(code, 0);
});
