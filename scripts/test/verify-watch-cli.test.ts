// `verify --watch` as a learner runs it: when the practice directory is deleted it says so in one
// line and keeps running (no `spawn … ENOENT`), and once the directory is back it verifies again.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { test } from "node:test";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";
import { sharedPracticeTree } from "./support/shared-practice-tree.js";

const checkpoint = findCheckpoint("07");
const practiceDir = sharedPracticeTree(checkpoint, "pi-course-watch-cli-");

test("verify --watch：练习目录被删除时打印一行并继续等待，目录回来后自动重新验证", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const dir = practiceDir();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/verify.ts", "07", dir, "--watch"], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  const waiters: { pattern: RegExp; from: number; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (!waiter.pattern.test(output.slice(waiter.from))) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      check();
    });
  }
  const printed = (pattern: RegExp, from = 0) =>
    new Promise<void>((resolve) => {
      waiters.push({ pattern, from, resolve });
      check();
    });
  try {
    await printed(/监视 .* 中的改动/);
    const beforeDelete = output.length;
    await rm(dir, { recursive: true, force: true });
    await printed(/不见了/, beforeDelete);
    const missing = output
      .slice(beforeDelete)
      .split("\n")
      .filter((line) => line.includes("不见了"));
    assert.equal(missing.length, 1, `一行说明：\n${output.slice(beforeDelete)}`);
    assert.match(missing[0] ?? "", /npm run practice -w @pi\/course -- 07/, "写出怎样重新创建");
    assert.doesNotMatch(output, /ENOENT|\n\s+at /, "没有 spawn ENOENT，也没有堆栈");

    const beforeBack = output.length;
    await writeCheckpointTree(checkpoint, "practice", dir);
    await printed(/进度：0\/5 个 Lab 完成/, beforeBack);
    assert.equal(child.exitCode, null, "watch 一直在运行");
  } finally {
    child.kill("SIGINT");
    await new Promise((resolve) => child.once("close", resolve));
  }
});
