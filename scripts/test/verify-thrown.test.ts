// Verify tells a thrown TypeError (or the like) from a broken rule: when the learner's code throws
// before any assertion judges it, the line says so, names where in their own .ts file it was thrown
// (the focused run has source maps on), and points at the test's name for the rule it was checking.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { buildTree } from "../lib/run/focused-run.js";
import { plainStyle } from "../lib/terminal-style.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { verifyTree } from "../lib/verify/verify-labs.js";
import { formatSummary } from "../lib/verify/verify-report.js";

const checkpoint = findCheckpoint("00");
const teachingFile = checkpoint.teachingFiles[0] ?? "";

let holder: string;
let dir: string;

before(async () => {
  holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-thrown-"));
  dir = path.join(holder, "practice-00");
  await writeCheckpointTree(checkpoint, "practice", dir);
});

after(async () => {
  await rm(holder, { recursive: true, force: true });
});

test("verify 把你的代码抛出的 TypeError 说成异常：说出错误、它在你哪个 .ts 文件的哪一行，以及这不是断言失败", async () => {
  const target = targetFiles(checkpoint).get(teachingFile) ?? "";
  const planted = target.replace(
    "      dangling.push(...open);",
    "      dangling.push(...(undefined as unknown as typeof open));",
  );
  assert.notEqual(planted, target, "埋下错误：展开 undefined，抛出 TypeError");
  await writeFile(path.join(dir, ...teachingFile.split("/")), planted);
  const build = await buildTree(dir, checkpoint);
  assert.ok(build.ok, build.output);

  const verification = await verifyTree(dir, checkpoint);
  assert.ok(verification.built);
  const failure = verification.labs.find((progress) => !progress.done)?.firstFailure;
  assert.equal(failure?.thrown?.name, "TypeError", "读出抛出的错误类型");
  const summary = formatSummary(verification.labs, {
    checkpoint,
    dir,
    style: plainStyle,
    paths: { tree: dir, from: dir },
  });
  const line = summary.split("\n").find((text) => text.includes("TypeError")) ?? "";
  const lineOfPlant = planted.split("\n").findIndex((text) => text.includes("undefined as unknown")) + 1;
  assert.ok(
    line.includes(`你的代码抛出了 TypeError：`) &&
      line.includes(`（在 ${path.join(...teachingFile.split("/"))}:${lineOfPlant}:`),
    `说出错误与它在学习者 .ts 文件里的行（${lineOfPlant}）：${summary}`,
  );
  assert.match(line, /这不是断言失败.*规则写在上面的测试名里/, "说出这不是断言失败，规则在测试名里");
});

test("verify 把你的代码在不该抛出的地方抛出的 Error 说成异常：在你的哪个文件哪一行，测试等的是结果", async () => {
  const target = targetFiles(checkpoint).get(teachingFile) ?? "";
  const planted = target.replace(
    "      dangling.push(...open);",
    '      if (open.length > 0) throw new Error("我的检查：还有没配对的调用");\n      dangling.push(...open);',
  );
  assert.notEqual(planted, target, "埋下错误：在应当返回结果的地方抛出");
  await writeFile(path.join(dir, ...teachingFile.split("/")), planted);
  const build = await buildTree(dir, checkpoint);
  assert.ok(build.ok, build.output);

  const verification = await verifyTree(dir, checkpoint);
  assert.ok(verification.built);
  const summary = formatSummary(verification.labs, {
    checkpoint,
    dir,
    style: plainStyle,
    paths: { tree: dir, from: dir },
  });
  const line = summary.split("\n").find((text) => text.includes("我的检查")) ?? "";
  const lineOfPlant = planted.split("\n").findIndex((text) => text.includes("我的检查")) + 1;
  assert.ok(
    line.includes("你的代码抛出了 Error：我的检查：还有没配对的调用") &&
      line.includes(`（在 ${path.join(...teachingFile.split("/"))}:${lineOfPlant}:`),
    `说出抛出的错误与它在学习者文件里的行（${lineOfPlant}）：${summary}`,
  );
  assert.match(line, /没料到这里会抛出/, "说出测试等的是结果，不是异常");
});
