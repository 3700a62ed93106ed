// Every integrity check of one checkpoint, written once over the manifest:
//   - the target (`checkpoint --write target`) builds and passes all its tests;
//   - the parent is exactly the previous checkpoint's target, file for file (the first parent
//     builds and passes its own tests);
//   - the diagnostic turns exactly the manifest's tests red, and the target is green again after;
//   - a practice directory made by the learner's command inside the repository builds isolated,
//     fails every focused test with the first red first, reaches the manifest's running counts as
//     the labs are filled in from the target, and passes everything with the target's files;
//   - `practice N --from` the previous checkpoint's finished directory carries the learner's own
//     teaching files and leaves that directory untouched (the new directory is outside the
//     repository, so this is also the outside-isolation check); the first checkpoint checks a
//     practice directory outside the repository instead.
// Each check throws an AssertionError whose message names the rule (in the chapter's Chinese).
import assert from "node:assert/strict";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { practice } from "../cli/practice-command.js";
import { writeTree } from "../cli/write-tree-command.js";
import { type Checkpoint, focusedTestCount, loadManifest, repoRoot } from "../course/manifest.js";
import { labStages } from "../diff/lab-regions.js";
import { diagnosticReport, runDiagnostic } from "../mutation/diagnostic.js";
import { runNode, runNpm } from "../run/child-process.js";
import { buildTree, npmBuild, runFocused, runTreeTests } from "../run/focused-run.js";
import { snapshotDir } from "../trees/dir-snapshot.js";
import { filesUnder, writeFileIn } from "../trees/tree-fs.js";
import { verifyTree } from "../verify/verify-labs.js";
import { finishWithTarget, LEARNER_MARK, type ProveContext } from "./prove-context.js";

export interface IntegrityCheck {
  /** The rule the check proves, as a test name. */
  name: string;
  /**
   * Whether a Node major can change the outcome (focused tests red and green, the runner's reports);
   * the others read only files or run the target's own suite, which npm test runs on every Node.
   */
  nodeSensitive: boolean;
  run: () => Promise<void>;
}

/**
 * The checks of `checkpoint`, in order; the heavy trees they share start building at once. With
 * `nodeSensitiveOnly` (lib/run/node-sensitive.ts) the others are still listed, but nothing of theirs is started.
 */
export function integrityChecks(
  checkpoint: Checkpoint,
  context: ProveContext,
  { nodeSensitiveOnly = false }: { nodeSensitiveOnly?: boolean } = {},
): IntegrityCheck[] {
  const manifest = loadManifest();
  const index = manifest.checkpoints.findIndex((candidate) => candidate.id === checkpoint.id);
  const previous = manifest.checkpoints[index - 1];
  const { id } = checkpoint;
  context.builtTarget(checkpoint);
  if (previous !== undefined && !nodeSensitiveOnly) context.writeTarget(previous);
  // The diagnostic changes the target's file in place: it waits until the target's own tests are done.
  const targetChecked = nodeSensitiveOnly ? undefined : started(() => checkTarget(checkpoint, context));
  const checks: IntegrityCheck[] = [
    {
      name: `${id}：target（checkpoint --write target）可以构建，全部测试通过`,
      nodeSensitive: false,
      run: () => targetChecked ?? checkTarget(checkpoint, context),
    },
    {
      name: `${id}：parent（checkpoint --write parent）${previous === undefined ? "可以构建，自己的测试全部通过" : `与 ${previous.id} 的 target 逐个文件相同`}，没有本章新增的文件`,
      nodeSensitive: false,
      run: () => checkParent(checkpoint, previous, context),
    },
    {
      name: `${id}：诊断让名称含“${checkpoint.diagnostic.pattern}”的 ${checkpoint.diagnostic.failing} 项测试恰好变红，恢复后聚焦测试 ${focusedTestCount(checkpoint)} 项全部通过`,
      nodeSensitive: true,
      run: async () => {
        await targetChecked?.catch(() => undefined);
        await checkDiagnostic(checkpoint, context);
      },
    },
    {
      name: `${id}：仓库内的练习目录（npm run practice 创建）隔离、第一次红灯正确；Lab 按顺序从 target 补上时聚焦测试依次通过，换上 target 后全部通过`,
      nodeSensitive: true,
      run: () => checkPracticeInside(checkpoint, context),
    },
  ];
  checks.push(
    previous === undefined
      ? {
          name: `${id}：仓库外（系统临时目录）的练习目录同样可以构建、隔离，第一次红灯正确`,
          nodeSensitive: false,
          run: () => checkOutside(checkpoint, context),
        }
      : {
          name: `${id}：practice ${id} --from 完成的 ${previous.id} 练习目录：带入学习者自己的教学文件，那个目录不变；新目录在仓库外，可以构建、隔离，第一次红灯正确`,
          nodeSensitive: false,
          run: () => checkFrom(checkpoint, previous, context),
        },
  );
  return checks;
}

async function checkTarget(checkpoint: Checkpoint, context: ProveContext): Promise<void> {
  const dir = context.targetDir(checkpoint);
  const build = await context.builtTarget(checkpoint);
  assert.ok(build.ok, `target 可以构建：${build.firstError ?? build.output}`);
  const { files, result } = await context.limit(() => runTreeTests(dir));
  const sources = [...(await sourceFiles(dir)).keys()].filter((file) => file.endsWith(".test.ts"));
  assert.equal(files.length, sources.length, "target 的每个测试源文件都编译并运行了");
  assert.equal(result?.fail, 0, result?.firstFailure?.error);
  // The focused tests' count and passing are the diagnostic's last check, on this same target.
}

async function checkParent(checkpoint: Checkpoint, previous: Checkpoint | undefined, context: ProveContext) {
  const dir = path.join(context.outside, `parent-${checkpoint.id}`);
  await writeTree(checkpoint, "parent", dir, context.outside, false);
  const files = await sourceFiles(dir);
  for (const added of checkpoint.target.adds) assert.equal(files.has(added), false, `parent 没有 ${added}`);
  if (previous !== undefined) {
    await context.writeTarget(previous);
    const previousTarget = await sourceFiles(context.targetDir(previous));
    assert.deepEqual(files, previousTarget, `parent(${checkpoint.id}) 就是 target(${previous.id})`);
    return;
  }
  const build = await context.limit(() => npmBuild(dir, ["run", "build"]));
  assert.ok(build.ok, `parent 可以构建：${build.firstError ?? build.output}`);
  const { files: tests, result } = await context.limit(() => runTreeTests(dir));
  assert.equal(
    tests.length,
    [...files.keys()].filter((file) => file.endsWith(".test.ts")).length,
    "parent 的测试都运行了",
  );
  if (result !== undefined) assert.equal(result.fail, 0, result.firstFailure?.error);
}

async function checkDiagnostic(checkpoint: Checkpoint, context: ProveContext): Promise<void> {
  const build = await context.builtTarget(checkpoint);
  assert.ok(build.ok, `target 可以构建：${build.firstError ?? build.output}`);
  const dir = context.targetDir(checkpoint);
  const outcome = await context.limit(() => runDiagnostic(checkpoint, dir));
  const { pattern, failing, file } = checkpoint.diagnostic;
  const red = outcome.mutated.results.filter((result) => result.status === "fail").map((result) => result.name);
  assert.equal(red.length, failing, `诊断（${file}）变红 ${failing} 项，实际 ${red.length} 项：${red.join("；")}`);
  assert.ok(
    red.every((name) => name.includes(pattern)),
    `变红的都是“${pattern}”测试`,
  );
  const named = outcome.mutated.results.filter((result) => result.name.includes(pattern));
  assert.equal(named.length, failing, `名称含“${pattern}”的测试都变红`);
  assert.deepEqual(
    [outcome.restored.pass, outcome.restored.fail],
    [focusedTestCount(checkpoint), 0],
    `恢复后聚焦测试 ${focusedTestCount(checkpoint)} 项全部通过`,
  );
  assert.match(
    diagnosticReport(checkpoint, outcome),
    new RegExp(`名称含“${pattern}”的失败 ${failing} 项`),
    "报告写出失败数",
  );
  const restored = await readFile(path.join(dir, ...file.split("/")), "utf8");
  assert.equal(restored.includes(checkpoint.diagnostic.replace), false, "诊断之后 target 的文件恢复原样");
}

async function checkPracticeInside(checkpoint: Checkpoint, context: ProveContext) {
  // The learner's command, from the repository root, with a path relative to it (INIT_CWD).
  const dir = context.insidePractice(checkpoint);
  const relative = path.relative(repoRoot, dir);
  const made = await runNpm(["run", "-s", "practice", "-w", "@pi/course", "--", checkpoint.id, relative], repoRoot);
  assert.equal(made.code, 0, made.output);
  assert.ok(made.output.includes(`cd ${relative}`), "打印下一步的 cd");
  await assertIsolatedBuild(checkpoint, dir, context);
  await assertFirstRed(checkpoint, dir, context);

  // The labs are filled in, in order, in the same directory, as a learner fills them: each build
  // after the first is incremental (buildTree rebuilds from scratch any output older than its source).
  let running = 0;
  for (const [stageIndex, stage] of labStages(checkpoint).entries()) {
    const result = await context.limit(async () => {
      for (const [file, content] of Object.entries(stage.files)) await writeFileIn(dir, file, content);
      const build = await buildTree(dir, checkpoint);
      assert.ok(build.ok, `Lab ${stage.lab.id} 之后可以构建：${build.firstError ?? build.output}`);
      return runFocused(dir, checkpoint);
    });
    running += stage.lab.expected;
    const finished = checkpoint.labs.slice(0, stageIndex + 1).map((lab) => lab.id);
    for (const outcome of result.results) {
      const lab = checkpoint.labs.find((candidate) => outcome.name.includes(candidate.pattern))?.id;
      assert.ok(lab, `测试名含某段 Lab 的模式：${outcome.name}`);
      if (finished.includes(lab)) assert.equal(outcome.status, "pass", `Lab ${stage.lab.id} 之后通过：${outcome.name}`);
      else if (!stage.early.includes(lab)) {
        assert.equal(
          outcome.status,
          "fail",
          `Lab ${stage.lab.id} 之后仍失败：${outcome.name}（starter 里 Lab ${lab} 的桩要在它的测试走到时才抛出）`,
        );
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
  await finishWithTarget(checkpoint, dir);
  const verification = await context.limit(() => verifyTree(dir, checkpoint));
  assert.ok(verification.built, "换上 target 的教学文件后可以构建");
  for (const progress of verification.labs) {
    assert.deepEqual(
      [progress.selected, progress.passed, progress.done],
      [progress.lab.expected, progress.lab.expected, true],
      `Lab ${progress.lab.id}“${progress.lab.pattern}”选中并通过 ${progress.lab.expected} 项`,
    );
  }
  context.markFinished(checkpoint, dir);
}

async function checkFrom(checkpoint: Checkpoint, previous: Checkpoint, context: ProveContext): Promise<void> {
  const from = await context.finishedPractice(previous);
  const before = await snapshotDir(from);
  const dir = path.join(context.outside, `from-${checkpoint.id}`);
  const outcome = await context.limit(() => practice([checkpoint.id, dir, "--from", from], context.outside));
  assert.notEqual(outcome, "help", "practice 创建了目录");
  assert.deepEqual(await snapshotDir(from), before, "--from 的目录没有被改动");
  for (const file of previous.teachingFiles) {
    const carried = await readFile(path.join(dir, ...file.split("/")), "utf8");
    assert.ok(carried.endsWith(LEARNER_MARK), `${file} 是学习者自己的版本`);
  }
  await assertIsolatedBuild(checkpoint, dir, context);
  await assertFirstRed(checkpoint, dir, context);
}

async function checkOutside(checkpoint: Checkpoint, context: ProveContext): Promise<void> {
  const dir = path.join(context.outside, `practice-${checkpoint.id}`);
  const outcome = await practice([checkpoint.id, dir], context.outside);
  assert.notEqual(outcome, "help", "practice 创建了目录");
  await assertIsolatedBuild(checkpoint, dir, context);
  await assertFirstRed(checkpoint, dir, context);
}

/** Builds the practice directory `dir` and checks that its own copy was compiled and resolved. */
async function assertIsolatedBuild(checkpoint: Checkpoint, dir: string, context: ProveContext): Promise<void> {
  const copied = await snapshotDir(dir);
  assert.deepEqual(
    copied.filter((line) => /(^|[\\/])dist[\\/ ]|\.tsbuildinfo /.test(line)),
    [],
    "没有复制 dist/ 或 *.tsbuildinfo（tsc -b 只按时间判断是否过期）",
  );
  const before = await mainBuildOutput();
  const build = await context.limit(() => buildTree(dir, checkpoint));
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

async function assertFirstRed(checkpoint: Checkpoint, dir: string, context: ProveContext): Promise<void> {
  const total = focusedTestCount(checkpoint);
  const [firstLab] = checkpoint.labs;
  assert.ok(firstLab, "至少一段 Lab");
  const [run, focused] = await Promise.all([
    context.limit(() => runFocused(dir, checkpoint)),
    context.limit(() => runFocused(dir, checkpoint, firstLab.pattern)),
  ]);
  assert.deepEqual([run.tests, run.pass, run.fail], [total, 0, total], "starter：全部聚焦测试失败");
  assert.equal(
    run.firstFailure?.error,
    checkpoint.firstRed,
    `第一次红灯是第一段 Lab 的错误（firstRed），实际是“${run.firstFailure?.error ?? "没有失败"}”（${run.firstFailure?.test ?? ""}）`,
  );
  assert.ok(run.firstFailure?.test.includes(firstLab.pattern), "第一次红灯来自第一段 Lab 的测试");
  assert.deepEqual(
    [focused.selected, focused.fail],
    [firstLab.expected, firstLab.expected],
    "第一段 Lab 的模式选中它的测试",
  );
  assert.equal(focused.firstFailure?.error, checkpoint.firstRed, "只运行第一段 Lab 的测试时也是同一个红灯");
}

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
  const packages = loadManifest().checkpoints.map((checkpoint) => checkpoint.focusedRun.split("/dist/")[0]);
  const dirs = [...new Set(packages)].map((dir) => path.join(repoRoot, `${dir}/dist`));
  return (await Promise.all(dirs.map((dir) => snapshotDir(dir).catch(() => [])))).flat();
}

/** Starts `run` now and lets a check await it later without an unhandled rejection. */
function started<T>(run: () => Promise<T>): Promise<T> {
  const promise = run();
  promise.catch(() => undefined);
  return promise;
}
