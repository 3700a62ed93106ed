// Verify names a crash as a crash: a focused test process that dies (here out of memory, from an
// array that grows while it is iterated) is one line saying so, with the likely cause, the lab and
// test in progress and the command to reproduce. The heap is kept small (NODE_OPTIONS, which the
// focused run's children inherit) so the process dies at once instead of after filling gigabytes.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { focusedCommand } from "../lib/commands.js";
import { findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { buildTree } from "../lib/run/focused-run.js";
import { plainStyle } from "../lib/terminal-style.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { type Verification, verifyTree } from "../lib/verify/verify-labs.js";
import { formatSummary } from "../lib/verify/verify-report.js";

const checkpoint = findCheckpoint("00");
const teachingFile = checkpoint.teachingFiles[0] ?? "";
const [lab] = checkpoint.labs;
assert.ok(lab);

let holder: string;
let dir: string;

before(async () => {
  holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-crash-"));
  dir = path.join(holder, "practice-00");
  await writeCheckpointTree(checkpoint, "practice", dir);
});

after(async () => {
  await rm(holder, { recursive: true, force: true });
});

/** Verifies with the focused runs' heap limited to `megabytes`; the build is already up to date. */
async function verifyWithHeap(megabytes: number): Promise<Verification> {
  const saved = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `--max-old-space-size=${megabytes}`;
  try {
    return await verifyTree(dir, checkpoint);
  } finally {
    if (saved === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved;
  }
}

test("verify 把崩溃说成崩溃：测试进程因内存耗尽而死，一行说出崩溃、可能的原因、正在进行的 Lab 与重现命令", async () => {
  const target = targetFiles(checkpoint).get(teachingFile) ?? "";
  const planted = target.replace("      dangling.push(...open);", "      for (const call of open) open.push(call);");
  assert.notEqual(planted, target, "埋下错误：遍历 open 时又往它里面 push，数组无限增长");
  await writeFile(path.join(dir, ...teachingFile.split("/")), planted);
  const build = await buildTree(dir, checkpoint);
  assert.ok(build.ok, build.output);

  const verification = await verifyWithHeap(64);
  assert.ok(verification.built);
  const progress = verification.labs[0];
  assert.equal(progress?.done, false, "崩溃的 Lab 没有完成");
  assert.match(progress?.firstFailure?.crashed ?? "", /heap out of memory/, "读出 V8 的致命错误");
  const summary = formatSummary(verification.labs, { checkpoint, dir, style: plainStyle });
  const line = summary.split("\n").find((text) => text.includes("崩溃")) ?? "";
  assert.match(line, /聚焦测试进程崩溃了（FATAL ERROR: [^）]*JavaScript heap out of memory）/, summary);
  assert.match(
    line,
    new RegExp(`当时在运行 Lab ${lab.id.replace(".", "\\.")} 的“[^”]*迟到的结果[^”]*”`),
    "说出正在进行的 Lab 与测试",
  );
  assert.match(line, /无限增长[\s\S]*环[\s\S]*无限递归/, "说出可能的原因");
  assert.ok(
    line.includes(`重现（在练习目录中）：${checkpoint.build}，然后 ${focusedCommand(checkpoint, lab.pattern)}`),
    line,
  );
  assert.doesNotMatch(summary, /test failed/, "不是只说 test failed 和一个文件路径");
});
