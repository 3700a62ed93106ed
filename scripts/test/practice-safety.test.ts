import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { practice, practiceUsage } from "../lib/cli/practice-command.js";
import { findCheckpoint, loadManifest, repoRoot } from "../lib/course/manifest.js";
import { runNpm } from "../lib/run/child-process.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { UsageError } from "../lib/usage-error.js";
import { nextPracticeDir } from "../lib/user-paths.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-practice-safety-"));
after(() => rm(holder, { recursive: true, force: true }));

/** Runs `practice argv` from `holder` and asserts it is refused with one line matching `message`. */
async function assertRefused(argv: string[], message: RegExp): Promise<void> {
  await assert.rejects(practice(argv, holder), (error: unknown) => {
    assert.ok(error instanceof UsageError, `UsageError, got ${String(error)}`);
    assert.match(error.message, message);
    assert.doesNotMatch(error.message, /\n/, "一行");
    return true;
  });
}

async function assertUnchanged(argv: string[], message: RegExp): Promise<void> {
  const before = await snapshotDir(holder);
  await assertRefused(argv, message);
  assert.deepEqual(await snapshotDir(holder), before, `${argv.join(" ")}：什么都没写`);
}

test("practice 拒绝格式不对或不存在的检查点编号（7、007、../07、空、99），什么都不写", async () => {
  for (const id of ["7", "007", "../07", ""]) await assertUnchanged([id, "new-dir"], /格式不对：请用两位数字/);
  await assertUnchanged(["99", "new-dir"], /没有检查点 99/);
  await assertUnchanged([], /缺少检查点编号/);
});

test("practice 拒绝已存在且不为空的目录、是文件的路径、不存在的上级目录和空目录参数，原有内容不变", async () => {
  const busy = path.join(holder, "busy");
  await mkdir(busy);
  await writeFile(path.join(busy, "mine.ts"), "learner work\n");
  await assertUnchanged(["07", "busy"], /已存在且不为空：请换一个新目录名/);
  assert.equal(await readFile(path.join(busy, "mine.ts"), "utf8"), "learner work\n");

  await writeFile(path.join(holder, "a-file"), "x");
  await assertUnchanged(["07", "a-file"], /已存在且不是目录/);
  await assertUnchanged(["07", "a-file/inside"], /是文件，不是目录/);
  await assertUnchanged(["07", "missing/deeper/07"], /上级目录不存在.*请先创建它/);
  await assertUnchanged(["07", ""], /目录参数为空/);
  await assertUnchanged(["07", "x", "y"], /多余的参数/);
  await assertUnchanged(["07", "--bogus"], /^未知选项 --bogus：请删掉它，或换成 --help 列出的选项/);
  await assertUnchanged(["07", "--help=yes"], /^选项 --help 不接受取值/);
});

test("practice 拒绝没有写权限的位置，什么都不留下", { skip: process.platform === "win32" }, async () => {
  let location: string;
  if (process.getuid?.() === 0) {
    // root ignores permission bits; /sys refuses new folders even for root.
    location = "/sys/pi-course-practice-07";
  } else {
    const locked = path.join(holder, "locked");
    await mkdir(locked, { mode: 0o555 });
    location = path.join(locked, "07");
  }
  await assertUnchanged(["07", location], /无法在 .* 中写入.*请换一个有写权限的目录/);
  await assert.rejects(stat(location), { code: "ENOENT" });
});

test("practice 接受一个已存在的空目录，并把它替换为完整的练习目录（权限 755，不是 mkdtemp 的 700）", async () => {
  const empty = path.join(holder, "empty");
  await mkdir(empty);
  const outcome = await practice(["07", "empty"], holder);
  assert.notEqual(outcome, "help");
  assert.equal((await stat(path.join(empty, "packages/pi-course/src/agent-loop.ts"))).isFile(), true);
  if (process.platform !== "win32") assert.equal((await stat(empty)).mode & 0o777, 0o755);
  const leftovers = (await snapshotDir(holder)).filter((line) => line.startsWith(".empty.tmp-"));
  assert.deepEqual(leftovers, [], "临时兄弟目录已经改名");
});

test("practice 的 Node 20 说明按本章 Lab 的计数举例：00 的唯一 Lab 选中全部测试，不提 skipped；02 的 Lab 2.1 完成后 tests 4、pass 2、skipped 2", async () => {
  const note = /^Node 20：.*$/m;
  const whole = await practice(["00", "note-00"], holder);
  assert.ok(whole !== "help" && !note.test(whole.message), "00 的 Lab 0.1 选中全部 2 项测试：没有 skipped 可说");
  const split = await practice(["02", "note-02"], holder);
  assert.ok(split !== "help");
  assert.match(split.message, /^Node 20：.*例如 Lab 2\.1 完成后：tests 4、pass 2、skipped 2）。$/m);
});

test("默认练习目录依次是 practice/07、practice/07-2、practice/07-3", async () => {
  const root = path.join(holder, "practice-root");
  await mkdir(root);
  assert.equal(nextPracticeDir("07", root), path.join(root, "07"));
  await mkdir(path.join(root, "07"));
  assert.equal(nextPracticeDir("07", root), path.join(root, "07-2"));
  await writeFile(path.join(root, "07-2"), "");
  assert.equal(nextPracticeDir("07", root), path.join(root, "07-3"));
});

test("写树中途失败时清理临时目录，且不沿链接删除主仓库 node_modules 里的工具链", async () => {
  const checkpoint = findCheckpoint("07");
  const dir = path.join(holder, "half-made");
  const typescript = await realpath(path.join(repoRoot, "node_modules/typescript/package.json"));
  const before = await snapshotDir(path.dirname(typescript));
  // A file where the @pi/core link must go: the links into the main node_modules exist by then.
  const blocked = { "node_modules/@pi/core": "in the way" };
  await assert.rejects(writeCheckpointTree(checkpoint, "practice", dir, { files: blocked }), { code: "EEXIST" });
  await assert.rejects(stat(dir), { code: "ENOENT" });
  assert.deepEqual(
    (await snapshotDir(holder)).filter((line) => line.startsWith(".half-made")),
    [],
    "临时目录已删除",
  );
  assert.deepEqual(await snapshotDir(path.dirname(typescript)), before, "主仓库的 typescript 原样保留");
});

test("npm run practice 的错误只有一行说明，退出码非零（学习者看到的样子）", async () => {
  const { code, output } = await runNpm(["run", "-s", "practice", "-w", "@pi/course", "--", "7"], repoRoot);
  assert.notEqual(code, 0);
  const { checkpoints } = loadManifest();
  const known = checkpoints.map((entry) => entry.id).join("、");
  assert.equal(
    output.trim().split(/\r?\n/)[0],
    `检查点编号 "7" 格式不对：请用两位数字，例如 ${checkpoints[0]?.id}（可用：${known}）。`,
  );
});

test("npm run practice 的未知选项与给开关加取值：一行说明与用法行，退出码非零，什么都不写", async () => {
  // practice has no option that takes a value; `--help=yes` is the value mistake it can meet.
  const cases: [string[], RegExp][] = [
    [["07", "--bogus"], /^未知选项 --bogus：/],
    [["07", path.join(holder, "fresh"), "--help=yes"], /^选项 --help 不接受取值：/],
  ];
  for (const [argv, message] of cases) {
    const before = await snapshotDir(holder);
    const defaultDir = nextPracticeDir("07");
    const { code, output } = await runNpm(["run", "-s", "practice", "-w", "@pi/course", "--", ...argv], repoRoot);
    assert.notEqual(code, 0, output);
    const lines = output.trim().split(/\r?\n/);
    assert.equal(lines.length, 1, output);
    assert.match(lines[0] ?? "", message);
    assert.ok(lines[0]?.endsWith(`用法：${practiceUsage}`), lines[0]);
    assert.deepEqual(await snapshotDir(holder), before, `${argv.join(" ")}：什么都没写`);
    await assert.rejects(stat(defaultDir), { code: "ENOENT" }, "默认练习目录没有创建");
  }
});
