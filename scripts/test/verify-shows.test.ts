// What verify shows of a failure (issue 21 §3): the value an assert.match, assert.ok or
// assert.throws was given (from real Node 20 TAP reports in fixtures/assert-*-node20.tap), which
// later lab's branch an earlier lab's test ran into, and, for a run stopped in a synchronous
// loop, the lab and the test in progress with the rest of the table still there.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { type FocusedFailure, parseTap } from "../../packages/pi-course-kit/src/tap-report.js";
import { findCheckpoint } from "../lib/course/manifest.js";
import { mutatedFiles } from "../lib/mutation/mutants.js";
import { buildTree, runFocused } from "../lib/run/focused-run.js";
import { plainStyle } from "../lib/terminal-style.js";
import { withTempTree } from "../lib/trees/temp-tree.js";
import { RunTimeoutError } from "../lib/usage-error.js";
import { type LabProgress, stoppedLabProgress } from "../lib/verify/verify-labs.js";
import { formatVerification } from "../lib/verify/verify-report.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const six = findCheckpoint("06");

/** verify's report for checkpoint 06 with every lab before `labId` done and `failure` in `labId`. */
function reportWith(labId: string, failure: FocusedFailure | LabProgress): string {
  const labs = six.labs.map((lab): LabProgress => {
    if ("lab" in failure && failure.lab.id === lab.id) return failure;
    const done = six.labs.findIndex((candidate) => candidate.id === lab.id) < six.labs.findIndex((c) => c.id === labId);
    return done
      ? { lab, passed: lab.expected, selected: lab.expected, done: true }
      : {
          lab,
          passed: 0,
          selected: lab.expected,
          done: false,
          ...(lab.id === labId && { firstFailure: failure as FocusedFailure }),
        };
  });
  return formatVerification({ built: true, labs }, { checkpoint: six, dir: "practice/06", style: plainStyle });
}

function fixtureFailure(name: string): FocusedFailure {
  const failure = parseTap(readFileSync(path.join(fixtures, name), "utf8")).firstFailure;
  assert.ok(failure, `${name} 有失败`);
  return failure;
}

test("verify 显示 assert.match 拿到的实际值，而不只是断言说明", () => {
  const failure = fixtureFailure("assert-match-node20.tap");
  assert.equal(failure.error, "错误文字说明原因");
  assert.match(reportWith("6.5", failure), /错误文字说明原因\n {4}实际值："Error: disk on fire"\n/);
});

test("verify 显示 assert.throws 实际抛出的错误；断言说明不被被抛出错误的 error 字段盖掉", () => {
  const failure = fixtureFailure("assert-throws-node20.tap");
  assert.equal(failure.error, "重名登记是清楚的错误", "第一行是断言自己的说明");
  assert.match(reportWith("6.1", failure), /重名登记是清楚的错误\n {4}实际抛出的错误："disk on fire"\n/);
});

test("verify 把 assert.ok 的 + false / - true 说成实际值 false", () => {
  const failure = fixtureFailure("assert-ok-node20.tap");
  const printed = reportWith("6.1", failure);
  assert.match(printed, /返回的是同一个对象\n {4}实际值：false（这条断言要求它成立）\n/);
  assert.doesNotMatch(printed, /^\s+- true$/m);
});

test("较早 Lab 的测试死在较晚 Lab 的桩上时，verify 说出走进了哪个 Lab 的分支，并问是不是漏了 await、continue 或 return", () => {
  const stub = (labId: string, title: string): FocusedFailure => ({
    test: "执行与配对：read(call-1) 执行一次",
    error: `Lab ${labId} ${title} 尚未实现`,
    diff: [],
    hung: false,
  });
  assert.match(
    reportWith("6.4", stub("6.5", "工具失败也只留一行")),
    /\n {4}你的代码走进了 Lab 6\.5（工具失败也只留一行）的分支，那里还没有写：Lab 6\.4 的测试本不该走到那里。是不是漏了 await（把 Promise 当成了值）、continue 或 return/,
  );
  assert.doesNotMatch(reportWith("6.4", stub("6.4", "执行工具并配对结果")), /走进了/, "本 Lab 自己的桩：照常");
});

test("聚焦运行卡在同步循环里：verify 写出卡住的 Lab 与正在运行的测试，表格照常列完", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const seven = findCheckpoint("07");
  const batch = '      for (const call of calls) emit(options, { type: "tool_start", call });\n';
  const spinning = mutatedFiles([
    {
      file: "packages/pi-course/src/agent-loop.ts",
      find: batch,
      replace: `      while (calls.length === 1) {}\n${batch}`,
    },
  ]);
  await withTempTree(seven, "target", spinning, async (dir) => {
    const build = await buildTree(dir, seven);
    assert.ok(build.ok, build.output);
    const lab = seven.labs[1];
    assert.ok(lab);
    // On a loaded machine the run's limit can come before its test process has even started a
    // test (nothing recorded): only then is it tried again with twice the time.
    let stopped: unknown;
    for (const runMs of [8_000, 16_000, 32_000]) {
      stopped = await runFocused(dir, seven, lab.pattern, undefined, { runMs, fileMs: 2_000 }).then(
        () => assert.fail("单工具往返的测试应当卡住"),
        (error: unknown) => error,
      );
      if (!(stopped instanceof RunTimeoutError) || stopped.test !== undefined) break;
    }
    assert.ok(stopped instanceof RunTimeoutError, String(stopped));
    assert.match(stopped.test ?? "", /^单工具往返：/, "记下了正在运行的测试");
    assert.deepEqual(
      readdirSync(path.join(dir, "packages/pi-course/dist/test")).filter((name) => name.startsWith(".focused-trace")),
      [],
      "运行结束后不留下记录测试名的文件",
    );
    const labs = seven.labs.map(
      (each): LabProgress =>
        each.id === lab.id
          ? stoppedLabProgress(each, stopped)
          : { lab: each, passed: each.expected, selected: each.expected, done: true },
    );
    const printed = formatVerification(
      { built: true, labs },
      { checkpoint: seven, dir: "practice/07", style: plainStyle },
    );
    for (const each of seven.labs)
      assert.match(printed, new RegExp(`\\n  ${each.id.replace(".", "\\.")} `), `表格有 Lab ${each.id} 一行`);
    assert.match(printed, /下一步：Lab 7\.2 闭合单工具往返/);
    assert.match(
      printed,
      /第一条失败：单工具往返：[^\n]*\n {4}聚焦测试 \d+ 秒后仍未结束，已被终止：检查 Lab 7\.2 写的 agent-loop\.ts 里是否有不会结束的循环（同步循环，或每一轮都立刻兑现的 await 循环：两者都不让出事件循环）。\n/,
    );
    assert.doesNotMatch(printed, /永远不 settle 的 Promise/, "同步循环不被说成异步挂起");
  });
});
