// The lighter course run CI uses on Node 22 and 24 (lib/run/node-sensitive.ts): how it is asked for,
// and that a wrong use says so in one line instead of running a suite.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";
import { NODE_SENSITIVE_FLAG, nodeSensitiveEnv, skipUnlessFullRun } from "../lib/run/node-sensitive.js";

function runScript(script: string, args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, script), ...args], {
    cwd: repoRoot,
    encoding: "utf8",
  });
}

test("--node-sensitive 只用于 test:course：给 npm test 时一行说明、退出码 2，不运行任何测试", () => {
  const run = runScript("scripts/test.ts", [NODE_SENSITIVE_FLAG]);
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stderr.trim(), `${NODE_SENSITIVE_FLAG} 只用于 npm run test:course`);
  assert.equal(run.stdout, "", "没有运行测试");
});

test("test:node 只给 --node-sensitive、没有 Node 主版本号：一行用法（写出这个选项）、退出码 2，什么也不下载", () => {
  const run = runScript("scripts/test-on-node.ts", [NODE_SENSITIVE_FLAG]);
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr.trim(), /^用法：npm run test:node -- \[--node-sensitive\] <Node 主版本号…>/);
  assert.doesNotMatch(run.stderr.trim(), /\n/);
});

test("只跑随 Node 版本变化的检查时，与 Node 版本无关的检查带着原因跳过；完整运行时不跳过", () => {
  const key = Object.keys(nodeSensitiveEnv)[0] ?? "";
  const saved = process.env[key];
  try {
    delete process.env[key];
    assert.equal(skipUnlessFullRun(), false, "完整运行：不跳过");
    Object.assign(process.env, nodeSensitiveEnv);
    assert.match(String(skipUnlessFullRun()), /与 Node 版本无关/, "只跑随 Node 版本变化的检查：说出为什么跳过");
  } finally {
    if (saved === undefined) delete process.env[key];
    else process.env[key] = saved;
  }
});
