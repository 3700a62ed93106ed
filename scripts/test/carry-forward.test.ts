// `practice N --from`: the learner's own files move forward, with each later checkpoint's change
// applied to them (a real change: checkpoint 06's to @pi/core's index.ts), and every refusal is one
// line that writes nothing and leaves the earlier directory as it was.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { checkpoint } from "../lib/cli/checkpoint-command.js";
import { practice } from "../lib/cli/practice-command.js";
import { findCheckpoint, loadManifest, type Manifest } from "../lib/course/manifest.js";
import { beforeFiles, parentFiles, targetFiles } from "../lib/course/snapshots.js";
import { carryForward } from "../lib/diff/carry-forward.js";
import { isNoise, mergeChange } from "../lib/diff/carry-merge.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { UsageError } from "../lib/usage-error.js";
import { learnerCopies } from "./support/learner-copies.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-carry-forward-"));
after(() => rm(holder, { recursive: true, force: true }));

const six = findCheckpoint("06");
const seven = findCheckpoint("07");
const index = "packages/pi-core/src/index.ts";
/** A course with a checkpoint 05 before 06 whose teaching file is the index.ts that 06 changes; it comes first, so it lists its parent's files. */
const five = {
  ...six,
  id: "05",
  parent: { description: six.parent.description, files: [...parentFiles(six).keys()] },
  target: { ...six.target, adds: [] },
  teachingFiles: [index],
};
const course: Manifest = { checkpoints: [five, { ...six, parent: { description: six.parent.description } }, seven] };

test("--from 带入的文件：之后的检查点改动了它时，把改动（before/ → target）应用到学习者的版本上", () => {
  const before = beforeFiles(six).get(index);
  assert.ok(before, "06 记录了 index.ts 改动前的版本");
  const learner = `// my own notes\n${before}`;
  const carried = carryForward(course, five, seven, { [index]: learner });
  assert.equal(carried.files[index], `// my own notes\n${targetFiles(six).get(index)}`, "改动应用到学习者的版本");
  assert.deepEqual(carried.applied, [{ file: index, checkpoint: "06" }]);
  assert.deepEqual(carryForward(course, six, seven, { [index]: learner }).applied, [], "07 没有改动 index.ts");
});

test("--from 带入的文件与之后检查点的改动冲突时，一行说明哪个文件、第几行，以及能看到这份改动的命令", async () => {
  let message = "";
  assert.throws(
    () => carryForward(course, five, six, { [index]: "export {};\n" }),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      message = error.message;
      assert.match(
        message,
        /^检查点 06 对 packages\/pi-core\/src\/index\.ts 的改动无法确定放在你的版本的哪里（第 \d+ 行附近/,
      );
      assert.doesNotMatch(message, /\n/);
      return true;
    },
  );
  const command = /npm run checkpoint -w @pi\/course -- (\S+ --diff parent)/.exec(message);
  assert.ok(command?.[1], `拒绝里写出了 checkpoint … --diff parent：${message}`);
  const shown = await checkpoint(command[1].split(" "), holder);
  assert.ok(typeof shown === "string" && shown.includes(`+++ b/${index}`), "那条命令的 diff 里有这个文件的改动");
});

const nine = findCheckpoint("09");
const loop = "packages/pi-course/src/agent-loop.ts";
const codeOf = (text: string) =>
  text
    .split(/\r?\n/)
    .filter((line) => !isNoise(line))
    .map((line) => line.trim());

for (const { variant, files } of learnerCopies([seven])) {
  test(`--from 带入 07 的 agent-loop.ts（starter 写完每个 Lab，${variant}）：09 的改动放在参考实现的位置，注释与空行保持学习者的样子`, () => {
    const learner = files[loop] ?? "";
    const carried = carryForward(loadManifest(), seven, nine, { [loop]: learner });
    const text = carried.files[loop] ?? "";
    assert.deepEqual(codeOf(text), codeOf(targetFiles(nine).get(loop) ?? ""), "代码行与 09 的 target 相同");
    const comments = (source: string) => source.split(/\r?\n/).filter((line) => /^\s*\/\/ /.test(line));
    assert.deepEqual(comments(text), comments(learner), "学习者的注释一行不少、一行不多");
    assert.equal(text.includes("\r\n"), learner.includes("\r\n"), "换行符保持学习者的");
  });
}

test("合并改动：学习者自己的代码夹在改动两侧的参考代码之间时拒绝并给出行号，而不是猜一个位置", () => {
  const before = "a();\nb();\n";
  const after = "a();\ninserted();\nb();\n";
  assert.deepEqual(mergeChange(before, after, "// 注释\na();\n\n// 我的\nb();\n"), {
    ok: true,
    text: "// 注释\na();\ninserted();\n\n// 我的\nb();\n",
  });
  assert.deepEqual(mergeChange(before, after, "a();\nmine();\nb();\n"), { ok: false, line: 2 });
  assert.deepEqual(mergeChange(before, after, "a2();\nb();\n"), { ok: false, line: 1 }, "改动旁边的参考代码被改过");
  assert.deepEqual(mergeChange("x();\ngone();\n", "x();\n", "x();\n// 笔记\ngone();\n"), {
    ok: true,
    text: "x();\n// 笔记\n",
  });
  assert.deepEqual(mergeChange("x();\ngone();\n", "x();\n", "x();\n"), { ok: false, line: 2 }, "要删的代码不在");
});

async function assertRefused(argv: string[], message: RegExp, untouched?: string): Promise<void> {
  const before = await snapshotDir(holder);
  await assert.rejects(practice(argv, holder), (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, message);
    assert.doesNotMatch(error.message, /\n/, "一行");
    return true;
  });
  assert.deepEqual(
    await snapshotDir(holder),
    before,
    `${argv.join(" ")}：什么都没写${untouched ? "，也没改动 --from 的目录" : ""}`,
  );
}

test("practice --from 拒绝不存在的目录、不是练习目录的目录、不在之前的检查点和没有完成的练习目录", async () => {
  await assertRefused(["07", "new", "--from", "missing"], /^--from 的目录不存在.*去掉 --from/);
  await mkdir(path.join(holder, "plain"));
  await writeFile(path.join(holder, "plain", "package.json"), '{ "name": "mine" }\n');
  await assertRefused(["07", "new", "--from", "plain"], /^plain 不是练习目录/);
  await writeCheckpointTree(seven, "practice", path.join(holder, "p07"));
  await assertRefused(["06", "new", "--from", "p07"], /^p07 是检查点 07 的练习目录，不在 06 之前/);
  await writeCheckpointTree(six, "practice", path.join(holder, "p06"));
  await assertRefused(
    ["07", "new", "--from", "p06"],
    /^p06 还没有通过检查点 06 的聚焦测试（0\/5 个 Lab）：先完成它（npm run verify -w @pi\/course -- 06 p06）/,
    "p06",
  );
});
