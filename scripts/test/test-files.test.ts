import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { loadManifest } from "../lib/course/manifest.js";
import {
  compiledPath,
  compiledTestFiles,
  compiledTestsOf,
  isCourseSuiteTest,
  suiteFiles,
  testFilesUnder,
} from "../lib/course/test-files.js";
import { focusedFiles } from "../lib/run/focused-run.js";

const root = await mkdtemp(path.join(os.tmpdir(), "pi-course-test-files-"));
after(() => rm(root, { recursive: true, force: true }));

async function touch(relative: string, tree = root): Promise<void> {
  await mkdir(path.join(tree, path.dirname(relative)), { recursive: true });
  await writeFile(path.join(tree, relative), "");
}

test("测试源文件到编译产物的路径：packages/x/test/…test.ts → packages/x/dist/test/…test.js", () => {
  assert.equal(compiledPath("packages/pi-core/test/messages.test.ts"), "packages/pi-core/dist/test/messages.test.js");
  assert.equal(compiledPath("packages/pi-course/test/deep/a.test.ts"), "packages/pi-course/dist/test/deep/a.test.js");
  assert.throws(() => compiledPath("packages/pi-core/src/index.ts"), /not a package test source/);
  assert.deepEqual(
    compiledTestsOf([
      "tsconfig.base.json",
      "packages/pi-core/test/a.test.ts",
      "packages/pi-core/test/helpers.ts",
      "packages/pi-core/src/b.test.ts",
    ]),
    ["packages/pi-core/dist/test/a.test.js"],
  );
});

test("test/course/ 下的包测试（沿着课程链构建练习目录的检查）归 npm run test:course，其余归 npm test", () => {
  assert.equal(isCourseSuiteTest("packages/pi-coding-agent/dist/test/course/cli-from.test.js"), true);
  assert.equal(isCourseSuiteTest("packages/pi-coding-agent/dist/test/cli-args.test.js"), false);
  assert.equal(isCourseSuiteTest("packages/pi-coding-agent/dist/test/deep/course/x.test.js"), false);
});

test("列出树里已编译的测试：逐层遍历子目录，路径用 / 分隔并排序，其他文件不算", async () => {
  await touch("packages/pi-core/dist/test/z.test.js");
  await touch("packages/pi-core/dist/test/nested/deeper/a.test.js");
  await touch("packages/pi-core/dist/test/helpers.js");
  await touch("packages/pi-core/dist/test/a.test.js.map");
  await touch("packages/pi-course/dist/test/07-agent-loop.test.js");
  await touch("packages/pi-course/test/07-agent-loop.test.ts");
  await mkdir(path.join(root, "packages/empty"), { recursive: true });
  assert.deepEqual(await compiledTestFiles(root), [
    "packages/pi-core/dist/test/nested/deeper/a.test.js",
    "packages/pi-core/dist/test/z.test.js",
    "packages/pi-course/dist/test/07-agent-loop.test.js",
  ]);
  assert.deepEqual(await testFilesUnder(root, "packages/pi-course/test", ".test.ts"), [
    "packages/pi-course/test/07-agent-loop.test.ts",
  ]);
  assert.deepEqual(await testFilesUnder(root, "no/such/folder", ".test.ts"), []);
  assert.deepEqual(await compiledTestFiles(path.join(root, "missing")), []);
});

test("每个检查点的聚焦测试源文件编译后正是 focusedRun 选中的文件", async () => {
  for (const checkpoint of loadManifest().checkpoints) {
    const compiled = compiledPath(checkpoint.focusedTest);
    const tree = path.join(root, `focused-${checkpoint.id}`);
    await mkdir(path.join(tree, path.dirname(compiled)), { recursive: true });
    await writeFile(path.join(tree, compiled), "");
    assert.deepEqual(await focusedFiles(tree, checkpoint), [compiled]);
  }
});

test("两个套件的文件：npm test 是 scripts/test 与包里 test/course/ 以外的测试，test:course 是 scripts/test-course 与 test/course/；一个文件只归一个套件，练习目录里的测试都不算", async () => {
  const tree = await mkdtemp(path.join(os.tmpdir(), "pi-course-suite-files-"));
  try {
    for (const file of [
      "scripts/test/verify.test.ts",
      "scripts/test/support/helper.ts",
      "scripts/test-course/chain.test.ts",
      "packages/pi-coding-agent/dist/test/cli-args.test.js",
      "packages/pi-coding-agent/dist/test/course/cli-from.test.js",
      "practice/07/packages/pi-course/dist/test/07-agent-loop.test.js",
    ]) {
      await touch(file, tree);
    }
    assert.deepEqual(await suiteFiles(tree, "npm test"), [
      "scripts/test/verify.test.ts",
      "packages/pi-coding-agent/dist/test/cli-args.test.js",
    ]);
    assert.deepEqual(await suiteFiles(tree, "test:course"), [
      "scripts/test-course/chain.test.ts",
      "packages/pi-coding-agent/dist/test/course/cli-from.test.js",
    ]);
  } finally {
    await rm(tree, { recursive: true, force: true });
  }
});
