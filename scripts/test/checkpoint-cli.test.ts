import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { applyPatch, parsePatch } from "diff";
import { checkpoint, checkpointHelp, checkpointUsage } from "../lib/cli/checkpoint-command.js";
import { findCheckpoint, loadManifest, repoRoot } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { runNpm } from "../lib/run/child-process.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { treeFiles } from "../lib/trees/trees.js";
import { UsageError } from "../lib/usage-error.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-checkpoint-cli-"));
after(() => rm(holder, { recursive: true, force: true }));
const seven = findCheckpoint("07");
const knownIds = loadManifest()
  .checkpoints.map((entry) => entry.id)
  .join("、");

test("checkpoint 不带编号时列出检查点；--help 说明每个选项", async () => {
  const list = await checkpoint([], holder);
  assert.match(list, /^ {2}06 {2}让每个工具调用都得到配对结果（重建） +\S/m);
  assert.match(list, /^ {2}07 {2}闭合一次 README 工具往返（重建） +\S/m);
  assert.ok(list.indexOf("  06  ") < list.indexOf("  07  "), "按学习顺序：06 在 07 之前");
  assert.equal(await checkpoint(["--help"], holder), checkpointHelp);
  for (const option of ["--diff", "--diff parent", "--write parent", "--write target", "--diagnostic", "--lab 7.N"]) {
    assert.ok(checkpointHelp.includes(option), option);
  }
  const [, english] = checkpointHelp.match(/^Usage: (.*)$/m) ?? [];
  assert.ok(
    english?.includes("--lab 7.N") && english.includes("--diff [parent]"),
    "英文用法行也列出 --lab 与 --diff parent",
  );
});

test("checkpoint 07 的卡片：标题、模式、parent 与 target、教学与聚焦测试文件、命令、每段 Lab 的模式与数量", async () => {
  const card = await checkpoint(["07"], holder);
  for (const expected of [
    "Checkpoint 07 · 闭合一次 README 工具往返",
    "模式：重建",
    "= Checkpoint 06 的 target",
    "教学文件：packages/pi-course/src/agent-loop.ts",
    "聚焦测试：packages/pi-course/test/07-agent-loop.test.ts（9 项）",
    "构建：npm run build -w @pi/course",
    "聚焦运行：node --test packages/pi-course/dist/test/07-*.test.js",
    "第一次红灯：Lab 7.1 收集模型终态 尚未实现",
    "npm run practice -w @pi/course -- 07",
    "npm run checkpoint -w @pi/course -- 07 --diff",
    "npm run checkpoint -w @pi/course -- 07 --diff parent",
  ]) {
    assert.ok(card.includes(expected), `卡片含 ${expected}`);
  }
  for (const entry of seven.target.adds) assert.ok(card.includes(entry), entry);
  for (const lab of seven.labs) {
    assert.match(card, new RegExp(`${lab.id.replace(".", "\\.")} +"${lab.pattern}" +${lab.expected} 项`));
  }
});

test("checkpoint 07 --diff 是 starter → target 的 unified diff：打到 starter 上正好得到 target", async () => {
  const patchText = await checkpoint(["07", "--diff"], holder);
  const patches = parsePatch(patchText);
  assert.equal(patches.length, seven.teachingFiles.length);
  for (const [index, teaching] of seven.teachingFiles.entries()) {
    const patch = patches[index];
    assert.ok(patch);
    assert.equal(patch.oldFileName, `a/${teaching}`);
    assert.equal(patch.newFileName, `b/${teaching}`);
    assert.match(patch.oldHeader ?? "", /^starter /);
    const starter = await readFile(path.join(repoRoot, seven.starters[teaching] ?? ""), "utf8");
    assert.equal(applyPatch(starter, patch), targetFiles(seven).get(teaching));
  }
});

test("checkpoint 07 --diff parent 是 parent → target 的 unified diff：parent 没有的教学文件从 /dev/null 加入，打到空文件上正好得到 target", async () => {
  const parent = await treeFiles(seven, "parent");
  for (const argv of [
    ["07", "--diff", "parent"],
    ["07", "--diff=parent"],
  ]) {
    const patches = parsePatch(await checkpoint(argv, holder));
    assert.equal(patches.length, seven.teachingFiles.length, argv.join(" "));
    for (const [index, teaching] of seven.teachingFiles.entries()) {
      const patch = patches[index];
      assert.ok(patch);
      assert.equal(parent.has(teaching), false, "第 07 章要重建的文件不在 parent 里");
      assert.equal(patch.oldFileName, "/dev/null");
      assert.equal(patch.newFileName, `b/${teaching}`);
      assert.equal(applyPatch("", patch), targetFiles(seven).get(teaching));
    }
  }
});

test("checkpoint --write 拒绝错误的种类、缺少的目录、非空目录和坏编号，什么都不写", async () => {
  const busy = path.join(holder, "busy");
  await mkdir(busy);
  await writeFile(path.join(busy, "keep"), "keep");
  const cases: [string[], RegExp][] = [
    [["07", "--write", "practice", "x"], /--write 只接受 parent 或 target/],
    [["07", "--write", "target"], /需要一个新目录/],
    [["07", "--write", "target", "busy"], /已存在且不为空/],
    [["007", "--write", "target", "x"], /格式不对/],
    [["99", "--diff"], /没有检查点 99/],
    [["--diff"], /缺少检查点编号/],
    [["07", "--diff", "--diagnostic"], /一次只能用一个/],
    [["07", "extra"], /多余的参数/],
    [["07", "--diff", "target"], /--diff 后面只能跟 parent，收到 "target"/],
    [["07", "--bogus"], /^未知选项 --bogus：请删掉它/],
    [["07", "--write"], /^选项 --write 缺少取值/],
    [["07", "--lab"], /^选项 --lab 缺少取值/],
    [["07", "--diagnostic=yes"], /^选项 --diagnostic 不接受取值/],
  ];
  for (const [argv, message] of cases) {
    const before = await snapshotDir(holder);
    await assert.rejects(checkpoint(argv, holder), (error: unknown) => {
      assert.ok(error instanceof UsageError, `${argv.join(" ")}: ${String(error)}`);
      assert.match(error.message, message);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
    assert.deepEqual(await snapshotDir(holder), before, `${argv.join(" ")}：什么都没写`);
  }
});

test("npm run checkpoint 从仓库根目录与 -w @pi/course 都能打印卡片；坏编号一行说明、退出码非零", async () => {
  const fromRoot = await runNpm(["run", "-s", "checkpoint", "--", "07"], repoRoot);
  assert.equal(fromRoot.code, 0, fromRoot.output);
  assert.match(fromRoot.output, /^Checkpoint 07 · 闭合一次 README 工具往返$/m);
  const fromWorkspace = await runNpm(["run", "-s", "checkpoint", "-w", "@pi/course", "--", "07"], repoRoot);
  assert.equal(fromWorkspace.output, fromRoot.output);
  const bad = await runNpm(["run", "-s", "checkpoint", "--", "../07"], repoRoot);
  assert.notEqual(bad.code, 0);
  assert.equal(bad.output.trim(), `检查点编号 "../07" 格式不对：请用两位数字，例如 00（可用：${knownIds}）。`);
});

test("npm run checkpoint 的未知选项与缺少取值的选项：一行说明与用法行，退出码非零，什么都不写", async () => {
  const fresh = path.join(holder, "fresh");
  const cases: [string[], RegExp][] = [
    [["07", "--write", "target", fresh, "--bogus"], /^未知选项 --bogus：/],
    [["07", "--write"], /^选项 --write 缺少取值：/],
  ];
  for (const [argv, message] of cases) {
    const before = await snapshotDir(holder);
    const { code, output } = await runNpm(["run", "-s", "checkpoint", "-w", "@pi/course", "--", ...argv], repoRoot);
    assert.notEqual(code, 0, output);
    const lines = output.trim().split(/\r?\n/);
    assert.equal(lines.length, 1, output);
    assert.match(lines[0] ?? "", message);
    assert.ok(lines[0]?.endsWith(`用法：${checkpointUsage}`), lines[0]);
    assert.deepEqual(await snapshotDir(holder), before, `${argv.join(" ")}：什么都没写`);
  }
});
