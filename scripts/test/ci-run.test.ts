// CI's phases (.ci/phases.sh, sourced by .ci/run): each prints its time, a table of them ends the
// log, and a failed phase ends CI with its status, the phases after it not run.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";

/** Runs `body` after .ci/run's own prelude (strict mode, the phases library) in bash. */
function runCi(body: string) {
  const script = `set -euo pipefail\nsource .ci/phases.sh\n${body}\n`;
  return spawnSync("bash", ["-c", script], { cwd: repoRoot, encoding: "utf8" });
}

test("CI：.ci/run 在严格模式下运行（set -euo pipefail），每一步都是计时的 phase", () => {
  const ci = readFileSync(path.join(repoRoot, ".ci/run"), "utf8");
  assert.match(ci, /^set -euo pipefail$/m);
  assert.match(ci, /^source \.ci\/phases\.sh$/m);
  for (const command of [
    "npm ci",
    "npm test",
    "npm run test:course",
    "npm run -s test:node -- --node-sensitive 22 24",
  ]) {
    assert.match(ci, new RegExp(`^phase "[^"]+" ${command.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}$`, "m"), command);
  }
});

test("CI：每个 phase 打印它用的秒数，结束时列出全部 phase 的时间与总时间", () => {
  const run = runCi(`phase "第一步" true\nphase "第二步" bash -c 'sleep 1'`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^=== 第一步: \d+ s ===$/m);
  assert.match(run.stdout, /^=== 第二步: [1-9]\d* s ===$/m, "睡了一秒的一步至少记一秒");
  assert.match(
    run.stdout,
    /=== CI phases \(seconds\) ===\n {2}第一步: \d+ s\n {2}第二步: \d+ s\n {2}total: \d+ s, exit 0\n$/,
  );
});

test("CI：一个 phase 失败时 CI 以它的退出码结束，后面的 phase 不运行，时间表仍然打印并标出失败", () => {
  const run = runCi(`phase "通过" true\nphase "失败" bash -c 'exit 3'\nphase "不该运行" echo RAN`);
  assert.equal(run.status, 3);
  assert.equal(run.stdout.includes("RAN"), false, "失败之后的 phase 没有运行");
  assert.match(run.stdout, /^ {2}失败: \d+ s, FAILED \(exit 3\)$/m);
  assert.match(run.stdout, /^ {2}total: \d+ s, exit 3$/m);
});

test("CI：失败的 phase 里没通过的测试名（TAP 的 not ok 行）在时间表之后列出，日志只留下一部分时也看得到", () => {
  const failing = `printf 'ok 1 - 通过的测试\\nnot ok 2 - 第 16 章 Lab 16.3 没有全绿\\n  not ok 1 - 子测试\\n'; exit 1`;
  const run = runCi(`phase "课程套件" bash -c "${failing}"`);
  assert.equal(run.status, 1);
  assert.match(run.stdout, /^=== failed tests ===\n {2}课程套件: not ok 2 - 第 16 章 Lab 16\.3 没有全绿\n$/m);
  assert.doesNotMatch(run.stdout.split("=== failed tests ===")[1] ?? "", /通过的测试|子测试/, "只列出顶层的失败");
});
