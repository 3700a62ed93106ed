import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { applyPatch } from "diff";
import { findCheckpoint, labError, repoRoot } from "../lib/course/manifest.js";
import { labChanges } from "../lib/diff/lab-regions.js";
import { runNode } from "../lib/run/child-process.js";
import { displayWidth, padDisplay, plainStyle } from "../lib/terminal-style.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { UsageError } from "../lib/usage-error.js";
import { practiceDirShown } from "../lib/user-paths.js";
import { practiceDirs, resolvePracticeDir } from "../lib/verify/verify-dir.js";
import { isComplete, nextLab, type Verification, verifyTree, verifyTreeAtOnce } from "../lib/verify/verify-labs.js";
import { formatVerification } from "../lib/verify/verify-report.js";

// One practice tree for the whole file, walked the way a learner walks it:
// fresh starter → Lab 7.1 done → target → a syntax error.
const checkpoint = findCheckpoint("07");
const teachingFile = checkpoint.teachingFiles[0] ?? "";
const [firstLab, secondLab] = checkpoint.labs;
assert.ok(firstLab && secondLab);

let holder: string;
let dir: string;

before(async () => {
  holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-verify-"));
  dir = path.join(holder, "practice-07");
  await writeCheckpointTree(checkpoint, "practice", dir);
});

after(async () => {
  await rm(holder, { recursive: true, force: true });
});

function verifyCli(...args: string[]) {
  return runNode(["--import", "tsx", "scripts/verify.ts", "07", ...args], repoRoot);
}

async function report(): Promise<{ text: string; complete: boolean }> {
  const verification = await verifyTree(dir, checkpoint);
  assert.deepEqual(
    verdicts(await verifyTreeAtOnce(dir, checkpoint)),
    verdicts(verification),
    "一次运行全部 Lab 得到的判定（课程套件用它）与逐个 Lab 运行的相同：各 Lab 的通过数、选中数、是否完成，下一个 Lab 的第一条失败",
  );
  return {
    text: formatVerification(verification, { checkpoint, dir, style: plainStyle }),
    complete: isComplete(verification),
  };
}

/** What verify judges from a verification: each lab's counts, and the first failure of the lab to work on next. */
function verdicts(verification: Verification) {
  if (!verification.built) return { built: false };
  const labs = verification.labs.map(({ lab, passed, selected, done }) => ({ id: lab.id, passed, selected, done }));
  const failure = nextLab(verification.labs)?.firstFailure;
  return { labs, next: failure && { test: failure.test, error: failure.error, diff: failure.diff } };
}

function teachingPath(): string {
  return path.join(dir, ...teachingFile.split("/"));
}

test("verify 新练习目录：0/5 个 Lab，给出 Lab 7.1 的第一条失败、聚焦命令与提示，非零退出", async () => {
  const { code, output } = await verifyCli(dir);

  assert.equal(code, 1, output);
  assert.match(output, /进度：0\/5 个 Lab 完成/);
  for (const lab of checkpoint.labs) {
    assert.match(output, new RegExp(`${lab.id}\\s+${lab.title}\\s+${lab.pattern}\\s+0/${lab.expected}\\s+✗`));
  }
  assert.match(output, /下一步：Lab 7\.1 收集模型终态/);
  assert.ok(output.includes(labError(firstLab)), "第一条失败是 Lab 7.1 的临时错误");
  assert.ok(output.includes(`node --test --test-name-pattern="${firstLab.pattern}" ${checkpoint.focusedRun}`));
  assert.ok(output.includes(firstLab.hint), "显示 Lab 7.1 的提示");
});

test("verify 应用 checkpoint --lab 7.1 的改动后：Lab 7.1 ✓，下一步是 Lab 7.2 与它的提示", async () => {
  const [change] = labChanges(checkpoint, firstLab.id);
  assert.ok(change);
  const patched = applyPatch(await readFile(teachingPath(), "utf8"), change.patch);
  assert.ok(patched !== false, "Lab 7.1 的 diff 能应用到新练习目录的 starter");
  await writeFile(teachingPath(), patched);

  const { text, complete } = await report();

  assert.equal(complete, false);
  assert.match(text, /7\.1\s+收集模型终态\s+纯文本 stop\s+1\/1\s+✓/);
  assert.match(text, /进度：1\/5 个 Lab 完成/);
  assert.match(text, /下一步：Lab 7\.2 闭合单工具往返/);
  assert.ok(text.includes(labError(secondLab)));
  assert.ok(text.includes(secondLab.hint));
});

test("verify 换成 target 的教学文件：5/5 个 Lab 全部 ✓，退出码 0", async () => {
  await writeFile(teachingPath(), await readFile(path.join(repoRoot, teachingFile), "utf8"));

  const { code, output } = await verifyCli(dir);

  assert.equal(code, 0, output);
  assert.match(output, /进度：5\/5 个 Lab 完成/);
  assert.doesNotMatch(output, /✗/);
  assert.doesNotMatch(output, /下一步/);
});

test("verify 语法错误：显示构建失败与编译器的第一条错误，不显示 Lab 进度", async () => {
  const target = await readFile(path.join(repoRoot, teachingFile), "utf8");
  await writeFile(teachingPath(), `${target}\nexport const broken = ;\n`);

  const { text, complete } = await report();

  assert.equal(complete, false);
  assert.match(text, /构建失败：npm run build -w @pi\/course/);
  assert.match(text, /agent-loop\.ts\(\d+,\d+\): error TS\d+/, text);
  assert.doesNotMatch(text, /进度/);
});

test("verify 目录参数：相对路径从运行 npm 的目录算起；不是练习目录时一行说明怎样创建", () => {
  assert.equal(resolvePracticeDir(checkpoint, "practice-07", holder, holder), dir);
  assert.throws(
    () => resolvePracticeDir(checkpoint, ".", repoRoot, holder),
    (error: unknown) =>
      error instanceof UsageError &&
      !error.message.includes("\n") &&
      error.message.includes("npm run practice -w @pi/course -- 07"),
  );
  assert.throws(() => resolvePracticeDir(checkpoint, "missing", holder, holder), UsageError);
});

test("verify 不给目录：选 practice 目录下该检查点最新的练习目录", async () => {
  const newer = path.join(holder, "practice-07-2");
  await writeCheckpointTree(checkpoint, "practice", newer);

  assert.deepEqual(practiceDirs(checkpoint, holder), [newer, dir]);
  assert.equal(resolvePracticeDir(checkpoint, undefined, repoRoot, holder), newer);
  const empty = await mkdtemp(path.join(holder, "empty-"));
  assert.throws(() => resolvePracticeDir(checkpoint, undefined, repoRoot, empty), /还没有检查点 07 的练习目录/);
});

test("verify 参数错误：未知选项是一行说明加用法行，非零退出；表格按终端列宽对齐中文", async () => {
  const { code, output } = await verifyCli(dir, "--bogus");
  assert.equal(code, 1, output);
  assert.equal(
    output.trim(),
    "未知选项 --bogus：请删掉它，或换成 --help 列出的选项。用法：npm run verify -w @pi/course -- <检查点> [练习目录] [--watch]",
  );
  assert.equal(displayWidth("纯文本 stop"), 11, "汉字占两列");
  assert.equal(displayWidth("Ａ，가ｱ"), 7, "全角与韩文占两列，半角片假名占一列");
  assert.equal(padDisplay("并发工具", 10), "并发工具  ");
});

test("verify 的“练习目录：”一行：在练习目录里运行时照课程的叫法写 practice/07-2，不写绝对路径；在别处运行时相对于所在目录", () => {
  const inside = path.join(repoRoot, "practice", "07-2");
  const named = path.join("practice", "07-2");
  assert.equal(practiceDirShown(inside, inside, repoRoot, "linux"), named, "在练习目录里：相对于课程仓库");
  assert.equal(practiceDirShown(inside, repoRoot, repoRoot, "linux"), named, "在仓库根目录：相对于所在目录");
  assert.equal(
    practiceDirShown(inside, path.join(repoRoot, "practice"), repoRoot, "linux"),
    "07-2",
    "在 practice/ 里：相对于所在目录",
  );
  const outside = path.join(os.tmpdir(), "my-07");
  assert.equal(practiceDirShown(outside, outside, repoRoot, "linux"), outside, "仓库之外的练习目录：绝对路径");
});
