// From the manifest, for every checkpoint: the parent builds and passes its own tests; a practice
// directory made by the learner's command builds, fails every focused test with the first red
// first, and reaches 9/9 with the target's teaching file; each lab's pattern selects its count;
// the practice copy is isolated both inside the repository and outside it.
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { checkpoint as checkpointCommand } from "../lib/cli/checkpoint-command.js";
import { practice } from "../lib/cli/practice-command.js";
import { type Checkpoint, focusedTestCount, labError, loadManifest, repoRoot } from "../lib/course/manifest.js";
import { runNode, runNpm } from "../lib/run/child-process.js";
import { buildTree, npmBuild, runFocused, runTreeTests } from "../lib/run/focused-run.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { practiceRoot } from "../lib/user-paths.js";

const outside = await mkdtemp(path.join(os.tmpdir(), "pi-course-integrity-"));
// Inside the repository, as a learner's default practice/07 is; removed afterwards.
const inside = await mkdtemp(path.join(practiceRoot, ".integrity-test-"));
after(async () => {
  await rm(outside, { recursive: true, force: true });
  await rm(inside, { recursive: true, force: true });
});

/** The main tree's build output: it must not change when a practice directory is built. */
async function mainBuildOutput(): Promise<string[]> {
  const packages = ["packages/pi-core/dist", "packages/pi-course/dist"];
  return (await Promise.all(packages.map((dir) => snapshotDir(path.join(repoRoot, dir)).catch(() => [])))).flat();
}

/** Where `specifier` resolves from the package folder `from` of a tree, as Node's loader sees it. */
async function resolvedFrom(from: string, specifier: string): Promise<string> {
  const { code, output } = await runNode(["-p", `require.resolve(${JSON.stringify(specifier)})`], from);
  assert.equal(code, 0, output);
  return realpath(output.trim());
}

/**
 * Builds the practice directory `dir` with the chapter's command and checks that it is the
 * practice copy that was compiled and resolved, and that the main tree's build did not move.
 */
async function assertIsolatedBuild(checkpoint: Checkpoint, dir: string): Promise<void> {
  const copied = await snapshotDir(dir);
  assert.deepEqual(
    copied.filter((line) => /(^|[\\/])dist[\\/ ]|\.tsbuildinfo /.test(line)),
    [],
    "没有复制 dist/ 或 *.tsbuildinfo（tsc -b 只按时间判断是否过期）",
  );
  const before = await mainBuildOutput();
  const build = await buildTree(dir, checkpoint);
  assert.ok(build.ok, `练习目录可以构建：${build.firstError ?? build.output}`);
  const compiled = await readFile(path.join(dir, "packages/pi-course/dist/src/agent-loop.js"), "utf8");
  assert.ok(compiled.includes(checkpoint.firstRed), "编译的是练习目录里的 starter");
  const realDir = await realpath(dir);
  const core = await resolvedFrom(path.join(dir, "packages/pi-course"), "@pi/core");
  assert.ok(core.startsWith(realDir + path.sep), `@pi/core 解析到练习目录：${core}`);
  assert.deepEqual(await mainBuildOutput(), before, "主仓库的 dist 没有变化");
}

async function assertFirstRed(checkpoint: Checkpoint, dir: string): Promise<void> {
  const total = focusedTestCount(checkpoint);
  const run = await runFocused(dir, checkpoint);
  assert.deepEqual([run.tests, run.pass, run.fail], [total, 0, total], "starter：全部聚焦测试失败");
  assert.equal(run.firstFailure?.error, checkpoint.firstRed);
  assert.ok(run.firstFailure?.test.includes(checkpoint.labs[0]?.pattern ?? "?"), "第一次红灯来自第一段 Lab 的测试");
  const firstLab = checkpoint.labs[0];
  assert.ok(firstLab);
  assert.equal(labError(firstLab), checkpoint.firstRed);
  const focused = await runFocused(dir, checkpoint, firstLab.pattern);
  assert.deepEqual([focused.selected, focused.fail], [firstLab.expected, firstLab.expected]);
  assert.equal(focused.firstFailure?.error, checkpoint.firstRed, "只运行第一段 Lab 的测试时也是同一个红灯");
}

for (const checkpoint of loadManifest().checkpoints) {
  const id = checkpoint.id;

  test(`${id}：parent 是完整可构建的树（没有教学文件），自己的测试全部通过`, async () => {
    const dir = path.join(outside, "parent");
    await checkpointCommand([id, "--write", "parent", dir], outside);
    for (const teaching of checkpoint.teachingFiles) {
      await assert.rejects(readFile(path.join(dir, teaching)), { code: "ENOENT" }, `parent 没有 ${teaching}`);
    }
    const build = await npmBuild(dir, ["run", "build"]);
    assert.ok(build.ok, `parent 可以构建：${build.firstError ?? build.output}`);
    const { files, result } = await runTreeTests(dir);
    const sources = (await snapshotDir(dir)).filter(
      (line) => /\.test\.ts file /.test(line) && !line.includes("node_modules"),
    );
    assert.equal(files.length, sources.length, "parent 的每个测试源文件都编译并运行了");
    if (result !== undefined) {
      assert.equal(result.fail, 0, result.firstFailure?.error);
      assert.ok(result.pass > 0);
    }
    assert.ok(
      files.every((file) => !file.includes("pi-course/")),
      "parent 的测试不包含本章的聚焦测试",
    );
  });

  test(`${id}：target 是完整可构建的树，聚焦测试全部通过`, async () => {
    const dir = path.join(outside, "target");
    await checkpointCommand([id, "--write", "target", dir], outside);
    const build = await buildTree(dir, checkpoint);
    assert.ok(build.ok, build.firstError ?? build.output);
    const run = await runFocused(dir, checkpoint);
    assert.deepEqual([run.pass, run.fail], [focusedTestCount(checkpoint), 0]);
  });

  test(`${id}：仓库内的练习目录（npm run practice 创建）可以构建、隔离，第一次红灯正确，换上 target 后全部通过，每段 Lab 选中预期数量`, async () => {
    // The learner's command, from the repository root, with a path relative to it (INIT_CWD).
    const relative = path.relative(repoRoot, path.join(inside, id));
    const made = await runNpm(["run", "-s", "practice", "-w", checkpoint.package, "--", id, relative], repoRoot);
    assert.equal(made.code, 0, made.output);
    const dir = path.join(inside, id);
    assert.ok(made.output.includes(`cd ${relative}`), "打印下一步的 cd");
    await assertIsolatedBuild(checkpoint, dir);
    await assertFirstRed(checkpoint, dir);

    for (const teaching of checkpoint.teachingFiles)
      await copyFile(path.join(repoRoot, teaching), path.join(dir, teaching));
    const rebuilt = await buildTree(dir, checkpoint);
    assert.ok(rebuilt.ok, rebuilt.firstError ?? rebuilt.output);
    const run = await runFocused(dir, checkpoint);
    const total = focusedTestCount(checkpoint);
    assert.deepEqual([run.tests, run.pass, run.fail], [total, total, 0], "换上 target 的教学文件后全部通过");
    for (const lab of checkpoint.labs) {
      const selected = await runFocused(dir, checkpoint, lab.pattern);
      assert.deepEqual([selected.selected, selected.pass, selected.fail], [lab.expected, lab.expected, 0], lab.pattern);
    }
  });

  test(`${id}：仓库外（系统临时目录）的练习目录同样可以构建、隔离，第一次红灯正确`, async () => {
    const dir = path.join(outside, `practice-${id}`);
    const outcome = await practice([id, dir], outside);
    assert.notEqual(outcome, "help");
    await assertIsolatedBuild(checkpoint, dir);
    await assertFirstRed(checkpoint, dir);
  });
}
