// The silent traps of the learner's commands, each shown gone: the focused tests say when they run
// in the course repository or on a stale build, a failed build writes no JavaScript, stack traces
// point at the .ts lines, an asynchronous hang ends in a timeout naming the test, and verify works
// inside a practice tree, prints as it goes, and counts build errors with paths from where the
// learner stands. One practice tree serves the whole file; each test puts back what it changed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { practice } from "../lib/cli/practice-command.js";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { runNode, runNpm } from "../lib/run/child-process.js";
import { buildTree, focusedFiles, runFocused } from "../lib/run/focused-run.js";
import { plainStyle } from "../lib/terminal-style.js";
import { verifyTree } from "../lib/verify/verify-labs.js";
import { formatVerification } from "../lib/verify/verify-report.js";
import { HANG_GUARD_MS } from "../test/support/hang-guard.js";
import { sharedPracticeTree } from "../test/support/shared-practice-tree.js";

const checkpoint = findCheckpoint("07");
const loopFile = "packages/pi-course/src/agent-loop.ts";
// Chapter 07's target: the live file as later checkpoints leave it, walked back to 07.
const target = targetFiles(checkpoint).get(loopFile) ?? "";
const starter = readFileSync(path.join(repoRoot, checkpoint.starters[loopFile] ?? ""), "utf8");
const referenceLine = "你在课程仓库根目录运行聚焦测试：这里是参考实现（target），不是你的练习。";

const practiceDir = sharedPracticeTree(checkpoint, "pi-course-traps-");

const loopPath = () => path.join(practiceDir(), ...loopFile.split("/"));

/** The chapter's bare focused command in `root` (files expanded here, as a shell would). */
async function focusedCommand(root: string): Promise<string> {
  const { output } = await runNode(["--test", ...(await focusedFiles(root, checkpoint))], root);
  return output;
}

/** Where in `output` the results start: the first test's name. */
function resultsStart(output: string): number {
  const at = output.indexOf("纯文本 stop");
  assert.notEqual(at, -1, `the run reports the tests:\n${output}`);
  return at;
}

test("在仓库根目录运行聚焦命令：结果之前有一行说明这是参考实现；练习目录里没有这一行", async () => {
  const atRoot = await focusedCommand(repoRoot);
  const warning = atRoot.indexOf(referenceLine);
  assert.ok(warning !== -1 && warning < resultsStart(atRoot), `根目录的输出先说明：\n${atRoot.slice(0, 600)}`);
  assert.equal(atRoot.split(referenceLine).length, 2, "只说一次");

  await writeFile(loopPath(), target);
  assert.ok((await buildTree(practiceDir(), checkpoint)).ok);
  const inPractice = await focusedCommand(practiceDir());
  assert.ok(!inPractice.includes(referenceLine), "练习目录里不提示");
  assert.match(inPractice, /^(# |ℹ )pass 9$/m, "9/9（Node 20 的 TAP 与 Node 24 的 spec 报告）");
});

test("改了教学文件没有重新构建：结果之前一行写出构建命令；失败的构建不写出新的 JavaScript", async () => {
  await writeFile(loopPath(), target);
  assert.ok((await buildTree(practiceDir(), checkpoint)).ok);
  const compiled = path.join(practiceDir(), "packages/pi-course/dist/src/agent-loop.js");
  const before = await readFile(compiled, "utf8");
  assert.doesNotMatch(await focusedCommand(practiceDir()), /和上一次成功的构建不一样/, "刚构建完：没有提示");

  await writeFile(loopPath(), `${target}\nexport const broken: number = "not a number";\n`);
  const build = await buildTree(practiceDir(), checkpoint);
  assert.equal(build.ok, false, "这次构建失败");
  assert.equal(await readFile(compiled, "utf8"), before, "noEmitOnError：dist 里还是上一次成功构建的 JavaScript");

  const output = await focusedCommand(practiceDir());
  const line = output.split("\n").find((candidate) => candidate.includes("和上一次成功的构建不一样"));
  assert.ok(line, `提示源文件和上一次成功的构建不一样：\n${output.slice(0, 600)}`);
  assert.ok(line.includes(loopFile) && line.includes(checkpoint.build), `写出文件与构建命令：${line}`);
  assert.ok(output.indexOf(line) < resultsStart(output), "在结果之前");
  await writeFile(loopPath(), target);
});

test("聚焦测试的堆栈指向学习者写的 .ts 行（source map），不是 dist/*.js", async () => {
  await writeFile(loopPath(), starter);
  assert.ok((await buildTree(practiceDir(), checkpoint)).ok);
  const output = await focusedCommand(practiceDir());
  // The first red is thrown in collectModelTurn(), the last of the starter's Lab 7.1 errors.
  const starterLine = starter.slice(0, starter.lastIndexOf('throw new Error("Lab 7.1 收集模型终态')).split("\n").length;
  assert.match(output, /src[\\/]agent-loop\.ts:\d+:\d+/, "堆栈里有 src/agent-loop.ts 的行号");
  assert.doesNotMatch(output, /dist[\\/]src[\\/]agent-loop\.js:\d+/, "没有 dist/src/agent-loop.js");
  assert.ok(output.includes(`agent-loop.ts:${starterLine}:`), `第一条红灯指向 starter 里抛出它的那一行 ${starterLine}`);
});

test("异步挂起（永不 settle 的 Promise）：这项测试以超时结束，失败写出测试名，verify 说明这是挂起", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const hanging = target.replace(
    "  const stream = options.model.stream(",
    "  await new Promise(() => {\n    setInterval(() => {}, 1_000);\n  });\n  const stream = options.model.stream(",
  );
  assert.notEqual(hanging, target);
  await writeFile(loopPath(), hanging);
  assert.ok((await buildTree(practiceDir(), checkpoint)).ok);

  const run = await runFocused(practiceDir(), checkpoint, "纯文本 stop");
  assert.ok(run.firstFailure, "有失败");
  assert.equal(run.firstFailure.hung, true, "是测试自己的超时");
  assert.match(run.firstFailure.error, /timed out after 5000ms/);
  assert.match(run.firstFailure.test, /^纯文本 stop：/, "失败写出测试名，而不是文件名");
  const [lab] = checkpoint.labs;
  assert.ok(lab);
  const printed = formatVerification(
    { built: true, labs: [{ lab, passed: 0, selected: 1, done: false, firstFailure: run.firstFailure }] },
    { checkpoint, dir: practiceDir(), style: plainStyle },
  );
  assert.match(printed, /第一条失败：纯文本 stop：/);
  assert.match(printed, /没有结束/, "verify 说明这项测试没有结束");
  await writeFile(loopPath(), target);
});

test("构建有多个错误：verify 写出一共几个，路径相对学习者所在的目录", async () => {
  const broken = target
    .replace("const DEFAULT_MAX_STEPS = 32;", 'const DEFAULT_MAX_STEPS: number = "32";')
    .replace("  return maxSteps;\n}", '  return "maxSteps";\n}');
  await writeFile(loopPath(), broken);
  const verification = await verifyTree(practiceDir(), checkpoint);
  assert.equal(verification.built, false);
  const printed = formatVerification(verification, {
    checkpoint,
    dir: practiceDir(),
    style: plainStyle,
    paths: { tree: practiceDir(), from: path.join(practiceDir(), "packages") },
  });
  assert.match(printed, /构建失败（2 个编译错误）：npm run build -w @pi\/course/);
  const errorLines = printed.split("\n").filter((line) => /error TS\d+/.test(line));
  assert.equal(errorLines.length, 2, printed);
  for (const line of errorLines) {
    assert.match(line, /^ {2}pi-course[\\/]src[\\/]agent-loop\.ts\(\d+,\d+\): error TS/, "相对 packages/ 的路径");
  }
  await writeFile(loopPath(), target);
});

test("在练习目录里 npm run verify（以及卡片上的 -w @pi/course -- 07）检查这个练习目录，边运行边打印", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await writeFile(loopPath(), starter);
  const bare = await runNpm(["run", "-s", "verify"], practiceDir());
  assert.equal(bare.code, 1, bare.output);
  assert.ok(bare.output.includes(`练习目录：${practiceDir()}`) || bare.output.includes("练习目录：."), bare.output);
  assert.match(bare.output, /进度：0\/5 个 Lab 完成/);
  const building = bare.output.indexOf("构建中：npm run build -w @pi/course");
  const head = bare.output.indexOf("测试名模式");
  assert.ok(building !== -1 && building < head, "先说正在构建，再打印表头");
  assert.match(bare.output, /运行 5 段 Lab 的测试/, "运行时有进度行");

  const card = await runNpm(["run", "-s", "verify", "-w", "@pi/course", "--", "07"], practiceDir());
  assert.equal(card.code, 1, card.output);
  assert.match(card.output, /进度：0\/5 个 Lab 完成/);
});

test("verify 每段 Lab 一结束就按顺序报告：构建之后、全部结束之前", async () => {
  await writeFile(loopPath(), target);
  const seen: string[] = [];
  let settled = false;
  const verification = verifyTree(practiceDir(), checkpoint, {
    onBuild: (build) => seen.push(`build ${build.ok}`),
    onLab: (progress, index) => {
      assert.equal(settled, false, "在 verify 结束之前");
      seen.push(`${index} ${progress.lab.id} ${progress.done}`);
    },
  });
  await verification;
  settled = true;
  assert.deepEqual(seen, ["build true", ...checkpoint.labs.map((lab, index) => `${index} ${lab.id} true`)]);
});

test("同步死循环：README 与 practice 的下一步说明它看起来怎样（没有输出、一直不结束），并让学习者改用 verify", async () => {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  for (const text of [readme.slice(0, readme.indexOf("## English")), readme.slice(readme.indexOf("## English"))]) {
    assert.match(text, /(同步死循环|synchronous infinite loop)/, "README 讲到同步死循环");
    assert.match(text, /(没有任何输出、一直不结束|prints nothing and never ends)/, "README 说出它看起来怎样");
  }
  const second = path.join(path.dirname(practiceDir()), "second");
  const outcome = await practice(["07", second], repoRoot);
  assert.ok(outcome !== "help");
  const line = outcome.message.split("\n").find((candidate) => candidate.includes("同步死循环"));
  assert.ok(line, `practice 的下一步讲到同步死循环：\n${outcome.message}`);
  assert.match(line, /没有任何输出、一直不结束/);
  assert.match(line, /npm run verify/);
});
