// Written once over the manifest, run for every checkpoint in course order:
//   - the target (`checkpoint --write target`) builds and passes all its tests; it is built once
//     and shared: the diagnostic runs in it, and the next checkpoint's parent is compared with it
//     file for file (parent(N) is exactly target(N−1)); the first parent is built on its own;
//   - the diagnostic turns exactly the manifest's tests red, and the target is green again after;
//   - a practice directory made by the learner's command inside the repository builds isolated,
//     fails every focused test with the first red first, reaches the manifest's running counts as
//     the labs are filled in from the target, and passes everything with the target's files;
//   - `practice N --from` the previous checkpoint's finished directory carries the learner's own
//     teaching files and leaves that directory untouched;
//   - a practice directory outside the repository is isolated too;
//   - `npm run course` reads where each of those practice directories stands.
import assert from "node:assert/strict";
import { appendFile, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { checkpoint as checkpointCommand } from "../lib/cli/checkpoint-command.js";
import { courseList } from "../lib/cli/course-list.js";
import { practice } from "../lib/cli/practice-command.js";
import { type Checkpoint, focusedTestCount, loadManifest, repoRoot } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { labStages } from "../lib/diff/lab-regions.js";
import { diagnosticReport, runDiagnostic } from "../lib/mutation/diagnostic.js";
import { runNode, runNpm } from "../lib/run/child-process.js";
import { buildTree, npmBuild, runFocused, runTreeTests } from "../lib/run/focused-run.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { withTempTree } from "../lib/trees/temp-tree.js";
import { filesUnder } from "../lib/trees/tree-fs.js";
import { practiceRoot } from "../lib/user-paths.js";
import { verifyTree } from "../lib/verify/verify-labs.js";

const manifest = loadManifest();
const outside = await mkdtemp(path.join(os.tmpdir(), "pi-course-integrity-"));
// Inside the repository, as a learner's default practice/07 is; removed afterwards.
const inside = await mkdtemp(path.join(practiceRoot, ".integrity-test-"));
after(async () => {
  await rm(outside, { recursive: true, force: true });
  await rm(inside, { recursive: true, force: true });
});

/** Starts `run` now (trees build side by side) and lets a test await it later without an unhandled rejection. */
function started<T>(run: () => Promise<T>): Promise<T> {
  const promise = run();
  promise.catch(() => undefined);
  return promise;
}

/** A comment a learner might leave in their own file: it proves which copy a tree holds. */
const LEARNER_MARK = "// written by the learner\n";

const targetDir = (checkpoint: Checkpoint) => path.join(outside, `target-${checkpoint.id}`);
const insidePractice = (checkpoint: Checkpoint) => path.join(inside, checkpoint.id);

/** The source files of a written tree (no installs, no build output, no generated root files). */
async function sourceFiles(dir: string): Promise<Map<string, string>> {
  const skip = (name: string) => name === "node_modules" || name === "dist" || name.endsWith(".tsbuildinfo");
  const files = (await filesUnder(dir, ".", skip)).map((file) => file.replace(/^\.\//, ""));
  const kept = files.filter((file) => file !== "package.json" && file !== "tsconfig.json");
  return new Map(
    await Promise.all(kept.map(async (file) => [file, await readFile(path.join(dir, file), "utf8")] as const)),
  );
}

/** The compiled path of a teaching file: `packages/x/src/y.ts` → `packages/x/dist/src/y.js`. */
function compiledTeachingFile(file: string): string {
  return file.replace(/^(packages\/[^/]+)\/(.*)\.ts$/, "$1/dist/$2.js");
}

/** The main tree's build output: it must not change when a practice directory is built. */
async function mainBuildOutput(): Promise<string[]> {
  const packages = manifest.checkpoints.map((checkpoint) => checkpoint.focusedRun.split("/dist/")[0]);
  const dirs = [...new Set(packages)].map((dir) => path.join(repoRoot, `${dir}/dist`));
  return (await Promise.all(dirs.map((dir) => snapshotDir(dir).catch(() => [])))).flat();
}

/** Builds the practice directory `dir` and checks that its own copy was compiled and resolved. */
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
  const compiled = await Promise.all(
    checkpoint.teachingFiles.map((file) => readFile(path.join(dir, compiledTeachingFile(file)), "utf8")),
  );
  assert.ok(
    compiled.some((source) => source.includes(checkpoint.firstRed)),
    "编译的是练习目录里的 starter",
  );
  const { code, output } = await runNode(["-p", `require.resolve(${JSON.stringify(checkpoint.package)})`], dir);
  assert.equal(code, 0, output);
  const resolved = await realpath(output.trim());
  assert.ok(resolved.startsWith((await realpath(dir)) + path.sep), `${checkpoint.package} 解析到练习目录：${resolved}`);
  assert.deepEqual(await mainBuildOutput(), before, "主仓库的 dist 没有变化");
}

async function assertFirstRed(checkpoint: Checkpoint, dir: string): Promise<void> {
  const total = focusedTestCount(checkpoint);
  const [firstLab] = checkpoint.labs;
  assert.ok(firstLab);
  const [run, focused] = await Promise.all([
    runFocused(dir, checkpoint),
    runFocused(dir, checkpoint, firstLab.pattern),
  ]);
  assert.deepEqual([run.tests, run.pass, run.fail], [total, 0, total], "starter：全部聚焦测试失败");
  assert.equal(run.firstFailure?.error, checkpoint.firstRed, "第一次红灯是清单的 firstRed");
  assert.ok(run.firstFailure?.test.includes(firstLab.pattern), "第一次红灯来自第一段 Lab 的测试");
  assert.deepEqual([focused.selected, focused.fail], [firstLab.expected, firstLab.expected]);
  assert.equal(focused.firstFailure?.error, checkpoint.firstRed, "只运行第一段 Lab 的测试时也是同一个红灯");
}

/** The lab whose pattern a test's name carries. */
function labOfTest(checkpoint: Checkpoint, name: string): string | undefined {
  return checkpoint.labs.find((lab) => name.includes(lab.pattern))?.id;
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(dir, ...file.split("/")), content);
}

for (const [index, checkpoint] of manifest.checkpoints.entries()) {
  const { id } = checkpoint;
  const previous = manifest.checkpoints[index - 1];
  // The independent trees of every checkpoint are written and built side by side from the start.
  const targetBuilt = started(async () => {
    await checkpointCommand([id, "--write", "target", targetDir(checkpoint)], outside);
    return npmBuild(targetDir(checkpoint), ["run", "build"]);
  });
  const stageRuns = started(() =>
    Promise.all(
      labStages(checkpoint).map((stage) =>
        withTempTree(checkpoint, "practice", stage.files, async (dir) => {
          const build = await buildTree(dir, checkpoint);
          if (!build.ok) throw new Error(`Lab ${stage.lab.id} 之后无法构建：${build.firstError ?? build.output}`);
          return runFocused(dir, checkpoint);
        }),
      ),
    ),
  );

  test(`${id}：target（checkpoint --write target）可以构建，全部测试通过，其中聚焦测试 ${focusedTestCount(checkpoint)} 项`, async () => {
    const dir = targetDir(checkpoint);
    const build = await targetBuilt;
    assert.ok(build.ok, `target 可以构建：${build.firstError ?? build.output}`);
    const { files, result } = await runTreeTests(dir);
    const sources = [...(await sourceFiles(dir)).keys()].filter((file) => file.endsWith(".test.ts"));
    assert.equal(files.length, sources.length, "target 的每个测试源文件都编译并运行了");
    assert.equal(result?.fail, 0, result?.firstFailure?.error);
    const focused = await runFocused(dir, checkpoint);
    assert.deepEqual([focused.pass, focused.fail], [focusedTestCount(checkpoint), 0], "聚焦测试全部通过");
  });

  test(`${id}：parent（checkpoint --write parent）${previous === undefined ? "可以构建，自己的测试全部通过" : `与 ${previous.id} 的 target 逐个文件相同`}，没有本章新增的文件`, async () => {
    const dir = path.join(outside, `parent-${id}`);
    await checkpointCommand([id, "--write", "parent", dir], outside);
    const files = await sourceFiles(dir);
    for (const added of checkpoint.target.adds) assert.equal(files.has(added), false, `parent 没有 ${added}`);
    if (previous !== undefined) {
      assert.deepEqual(files, await sourceFiles(targetDir(previous)), `parent(${id}) 就是 target(${previous.id})`);
      return;
    }
    const build = await npmBuild(dir, ["run", "build"]);
    assert.ok(build.ok, `parent 可以构建：${build.firstError ?? build.output}`);
    const { files: tests, result } = await runTreeTests(dir);
    assert.equal(tests.length, [...files.keys()].filter((file) => file.endsWith(".test.ts")).length);
    if (result !== undefined) assert.equal(result.fail, 0, result.firstFailure?.error);
  });

  test(`${id}：诊断让名称含“${checkpoint.diagnostic.pattern}”的 ${checkpoint.diagnostic.failing} 项测试恰好变红，恢复后全部通过`, async () => {
    const dir = targetDir(checkpoint);
    const outcome = await runDiagnostic(checkpoint, dir);
    const { pattern, failing } = checkpoint.diagnostic;
    const red = outcome.mutated.results.filter((result) => result.status === "fail").map((result) => result.name);
    assert.equal(red.length, failing, `诊断变红 ${failing} 项：${red.join("；")}`);
    assert.ok(
      red.every((name) => name.includes(pattern)),
      `变红的都是“${pattern}”测试`,
    );
    const named = outcome.mutated.results.filter((result) => result.name.includes(pattern));
    assert.equal(named.length, failing, `名称含“${pattern}”的测试都变红`);
    assert.deepEqual(
      [outcome.restored.pass, outcome.restored.fail],
      [focusedTestCount(checkpoint), 0],
      "恢复后全部通过",
    );
    const report = diagnosticReport(checkpoint, outcome);
    assert.match(report, new RegExp(`名称含“${pattern}”的失败 ${failing} 项`));
    assert.equal(
      (await readFile(path.join(dir, checkpoint.diagnostic.file), "utf8")).includes(checkpoint.diagnostic.replace),
      false,
    );
  });

  test(`${id}：仓库内的练习目录（npm run practice 创建）隔离、第一次红灯正确；Lab 按顺序从 target 补上时聚焦测试依次通过，换上 target 后全部通过`, async () => {
    // The learner's command, from the repository root, with a path relative to it (INIT_CWD).
    const dir = insidePractice(checkpoint);
    const relative = path.relative(repoRoot, dir);
    const made = await runNpm(["run", "-s", "practice", "-w", "@pi/course", "--", id, relative], repoRoot);
    assert.equal(made.code, 0, made.output);
    assert.ok(made.output.includes(`cd ${relative}`), "打印下一步的 cd");
    await assertIsolatedBuild(checkpoint, dir);
    await assertFirstRed(checkpoint, dir);

    let running = 0;
    const stages = labStages(checkpoint);
    const results = await stageRuns;
    for (const [stageIndex, stage] of stages.entries()) {
      const result = results[stageIndex];
      assert.ok(result);
      running += stage.lab.expected;
      const finished = checkpoint.labs.slice(0, stageIndex + 1).map((lab) => lab.id);
      for (const outcome of result.results) {
        const lab = labOfTest(checkpoint, outcome.name);
        assert.ok(lab, `测试名含某段 Lab 的模式：${outcome.name}`);
        if (finished.includes(lab))
          assert.equal(outcome.status, "pass", `Lab ${stage.lab.id} 之后通过：${outcome.name}`);
        else if (!stage.early.includes(lab)) {
          assert.equal(outcome.status, "fail", `Lab ${stage.lab.id} 之后仍失败：${outcome.name}`);
        }
      }
      if (stage.early.length === 0) assert.equal(result.pass, running, `Lab ${stage.lab.id} 之后 ${running} 项通过`);
      const next = checkpoint.labs[stageIndex + 1];
      if (next !== undefined && !stage.early.includes(next.id)) {
        assert.ok(
          result.firstFailure?.test.includes(next.pattern),
          `Lab ${stage.lab.id} 之后的第一次红灯来自下一段 Lab 的测试`,
        );
      }
    }

    // The learner finishes with the target's teaching files (and a comment of their own): verify says done.
    const target = targetFiles(checkpoint);
    await writeFiles(dir, Object.fromEntries(checkpoint.teachingFiles.map((file) => [file, target.get(file) ?? ""])));
    for (const file of checkpoint.teachingFiles) await appendFile(path.join(dir, file), LEARNER_MARK);
    const verification = await verifyTree(dir, checkpoint);
    assert.ok(verification.built, "换上 target 的教学文件后可以构建");
    for (const progress of verification.labs) {
      assert.deepEqual(
        [progress.selected, progress.passed, progress.done],
        [progress.lab.expected, progress.lab.expected, true],
        `Lab ${progress.lab.id}“${progress.lab.pattern}”选中并通过 ${progress.lab.expected} 项`,
      );
    }
  });

  if (previous !== undefined) {
    test(`${id}：practice ${id} --from 完成的 ${previous.id} 练习目录：带入学习者自己的教学文件，那个目录不变；新目录在仓库外，可以构建、隔离，第一次红灯正确`, async () => {
      const from = insidePractice(previous);
      const before = await snapshotDir(from);
      const dir = path.join(outside, `from-${id}`);
      const outcome = await practice([id, dir, "--from", from], outside);
      assert.notEqual(outcome, "help");
      assert.deepEqual(await snapshotDir(from), before, "--from 的目录没有被改动");
      for (const file of previous.teachingFiles) {
        const carried = await readFile(path.join(dir, file), "utf8");
        assert.ok(carried.endsWith(LEARNER_MARK), `${file} 是学习者自己的版本`);
      }
      // The new directory is outside the repository: this is also the checkpoint's outside-isolation check.
      await assertIsolatedBuild(checkpoint, dir);
      await assertFirstRed(checkpoint, dir);
    });
    continue;
  }

  test(`${id}：仓库外（系统临时目录）的练习目录同样可以构建、隔离，第一次红灯正确`, async () => {
    const dir = path.join(outside, `practice-${id}`);
    const outcome = await practice([id, dir], outside);
    assert.notEqual(outcome, "help");
    await assertIsolatedBuild(checkpoint, dir);
    await assertFirstRed(checkpoint, dir);
  });
}

test("npm run course：每个检查点一行，读出最新练习目录的进度（完成、N/M 个 Lab、未开始）", async () => {
  const last = manifest.checkpoints.at(-1);
  assert.ok(last);
  // The last checkpoint goes back to its starter: 0 labs done.
  const starters = Object.fromEntries(
    await Promise.all(
      Object.entries(last.starters).map(
        async ([file, starter]) => [file, await readFile(path.join(repoRoot, starter), "utf8")] as const,
      ),
    ),
  );
  await writeFiles(insidePractice(last), starters);
  const list = await courseList(manifest, inside, inside);
  const lines = list.split("\n");
  for (const checkpoint of manifest.checkpoints) {
    const line = lines.find((candidate) => candidate.startsWith(`  ${checkpoint.id}  ${checkpoint.title}`));
    assert.ok(line, `总览列出 ${checkpoint.id}`);
    const labs = checkpoint.labs.length;
    const state = checkpoint === last ? `${checkpoint.id}：0/${labs} 个 Lab` : `完成（${labs}/${labs} 个 Lab）`;
    assert.ok(line.endsWith(state) || line.includes(state), `${checkpoint.id}：${line}`);
  }
  const empty = await courseList(manifest, outside, path.join(outside, "no-practice"));
  assert.equal(empty.match(/未开始$/gm)?.length, manifest.checkpoints.length, "没有练习目录时每个检查点都未开始");
});
