// Faults met while writing a practice directory end in one line that names the fix, write
// nothing, and never lose the learner's folder: name too long, disk full, a mount point or an
// undeletable empty target, a link, two runs at once, a target inside the course repository.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { checkpoint as checkpointCli } from "../lib/cli/checkpoint-command.js";
import { practice } from "../lib/cli/practice-command.js";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { PRACTICE_MARKER } from "../lib/trees/practice-marker.js";
import type { Rename } from "../lib/trees/target-dir.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { UsageError } from "../lib/usage-error.js";
import { displayDir } from "../lib/user-paths.js";

const checkpoint = findCheckpoint("07");
const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-practice-faults-"));
after(() => rm(holder, { recursive: true, force: true }));

/**
 * Asserts `attempt` is refused with one line matching `message` and that `dir` is unchanged
 * (`snapshot`: the whole tree below it by default).
 */
async function assertRefusedUnchanged(
  dir: string,
  attempt: () => Promise<unknown>,
  message: RegExp,
  snapshot: (dir: string) => Promise<string[]> = snapshotDir,
): Promise<void> {
  const before = await snapshot(dir);
  await assert.rejects(attempt(), (error: unknown) => {
    assert.ok(error instanceof UsageError, `UsageError (one line, no stack), got ${String(error)}`);
    assert.match(error.message, message);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
  assert.deepEqual(await snapshot(dir), before, "nothing written, nothing left behind");
}

/** A rename that always fails with `code`, as the last step of writing a tree. */
function renameFailing(code: string): Rename {
  return async () => {
    throw Object.assign(new Error(`rename: ${code}`), { code });
  };
}

test("250 个字符的目录名：一行说明名字太长（ENAMETOOLONG），什么都不写", async () => {
  await assertRefusedUnchanged(holder, () => practice(["07", "x".repeat(250)], holder), /太长（ENAMETOOLONG）/);
});

test("超过系统路径长度上限的路径：说路径太长，而不是“上级目录不存在”", async () => {
  const deep = Array.from({ length: 40 }, () => "d".repeat(120)).join("/");
  await assertRefusedUnchanged(holder, () => practice(["07", `${deep}/07`], holder), /太长/);
});

test("指向空目录的符号链接：说它是链接、指向哪里，而不是“不是目录”", {
  skip: process.platform === "win32",
}, async () => {
  const empty = path.join(holder, "link-target");
  await mkdir(empty);
  await symlink(empty, path.join(holder, "link"));
  await assertRefusedUnchanged(holder, () => practice(["07", "link"], holder), /是一个符号链接（指向 .*link-target）/);
});

test("磁盘已满（ENOSPC）、空目录是挂载点（EBUSY）：一行说明，什么都不写，空目录原样保留", async () => {
  const cases: [string, RegExp][] = [
    ["ENOSPC", /磁盘空间不足（ENOSPC）.*请腾出空间/],
    ["EBUSY", /正被占用（EBUSY，例如它是一个挂载点）/],
  ];
  for (const [code, message] of cases) {
    const target = path.join(holder, `empty-${code}`);
    await mkdir(target);
    const write = () => writeCheckpointTree(checkpoint, "practice", target, { rename: renameFailing(code) });
    await assertRefusedUnchanged(holder, write, message);
    assert.deepEqual(await readdir(target), [], `${code}: the learner's empty folder is still there`);
  }
});

test("改名到空目录被拒（EPERM）：一行说明，学习者的空目录还在", async () => {
  const target = path.join(holder, "empty-EPERM");
  await mkdir(target);
  const write = writeCheckpointTree(checkpoint, "practice", target, { rename: renameFailing("EPERM") });
  await assert.rejects(write, (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, /^没有权限写入或替换 .*（EPERM）：请换一个有写权限的新目录。$/);
    return true;
  });
  assert.deepEqual(await readdir(target), []);
  assert.deepEqual(
    (await readdir(holder)).filter((name) => name.startsWith(".empty-EPERM")),
    [],
    "no temp folder left",
  );
});

const isRootOnLinux = process.platform === "linux" && process.getuid?.() === 0;

test("真的删不掉的空目录（chattr +i，EPERM）：一行说明，什么都不写", {
  skip: !isRootOnLinux || spawnSync("chattr", ["--help"], { stdio: "ignore" }).error !== undefined,
}, async () => {
  const target = path.join(holder, "immutable");
  await mkdir(target);
  if (spawnSync("chattr", ["+i", target]).status !== 0) return;
  try {
    await assertRefusedUnchanged(holder, () => practice(["07", "immutable"], holder), /（EPERM）/);
  } finally {
    spawnSync("chattr", ["-i", target]);
  }
});

/** Runs `use` with a tiny tmpfs mounted at a new folder (root on Linux only); skips elsewhere. */
const canMount = isRootOnLinux && spawnSync("mount", ["--version"], { stdio: "ignore" }).status === 0;
async function withTmpfs(name: string, size: string, use: (mountPoint: string) => Promise<void>): Promise<void> {
  const mountPoint = path.join(holder, name);
  await mkdir(mountPoint);
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mountPoint]);
  try {
    await use(mountPoint);
  } finally {
    execFileSync("umount", [mountPoint]);
  }
}

test("真的写满一个很小的 tmpfs（ENOSPC）：一行说明，磁盘上不留临时目录", { skip: !canMount }, async () => {
  await withTmpfs("tiny-disk", "16k", async (disk) => {
    await assertRefusedUnchanged(disk, () => practice(["07", path.join(disk, "07")], holder), /磁盘空间不足（ENOSPC）/);
  });
});

test("真的挂载点作为目标（EBUSY）：一行说明，挂载点原样保留", { skip: !canMount }, async () => {
  await withTmpfs("mounted", "1m", async (mountPoint) => {
    await assertRefusedUnchanged(holder, () => practice(["07", "mounted"], holder), /正被占用（EBUSY/);
    assert.deepEqual(await readdir(mountPoint), []);
  });
});

test("同时运行两个 practice 07：第二个换用下一个空闲的名字，两个目录都完整", async () => {
  const root = path.join(holder, "practice-root");
  await mkdir(root);
  const outcomes = await Promise.all([practice(["07"], holder, root), practice(["07"], holder, root)]);
  const dirs = outcomes.map((outcome) => (outcome === "help" ? "" : outcome.dir)).sort();
  assert.deepEqual(dirs, [path.join(root, "07"), path.join(root, "07-2")]);
  for (const dir of dirs) assert.ok((await stat(path.join(dir, PRACTICE_MARKER))).isFile(), `${dir} is finished`);
  assert.deepEqual((await readdir(root)).sort(), ["07", "07-2"], "no temp folder left behind");
});

test("practice/ 不存在时，默认运行先创建它，再创建 practice/07", async () => {
  const root = path.join(holder, "no-practice-yet");
  const outcome = await practice(["07"], holder, root);
  assert.notEqual(outcome, "help");
  assert.equal(outcome === "help" ? "" : outcome.dir, path.join(root, "07"));
  assert.deepEqual(await readdir(root), ["07"]);
});

test("practice 07 07、packages/ 里和仓库内 practice/ 之外的目标（也包括 checkpoint --write）被拒绝，--force 才放行，什么都不写", async () => {
  const inPackages = path.join(repoRoot, "packages/pi-course/src/x");
  const cases: [string, RegExp][] = [
    ["07", /在课程仓库里、practice\/ 之外：请放到 practice\/ 下.*加 --force/],
    ["packages/pi-course/src/x", /在 packages\/ 里，主仓库的构建会把它当作课程源码一起编译.*--force/],
    ["scripts", /在课程仓库里、practice\/ 之外/],
  ];
  for (const [dir, message] of cases) {
    const parent = path.dirname(path.join(repoRoot, dir));
    await assertRefusedUnchanged(parent, () => practice(["07", dir], repoRoot), message, readdir);
  }
  await assertRefusedUnchanged(
    path.dirname(inPackages),
    () => checkpointCli(["07", "--write", "target", "packages/pi-course/src/x"], repoRoot),
    /在 packages\/ 里.*--force/,
    readdir,
  );
  await assert.rejects(stat(inPackages), { code: "ENOENT" });
  const forced = path.join(repoRoot, `forced-practice-${process.pid}`);
  try {
    const outcome = await practice(["07", forced, "--force"], repoRoot);
    assert.notEqual(outcome, "help");
    assert.ok((await stat(path.join(forced, "package.json"))).isFile(), "--force writes it");
  } finally {
    await rm(forced, { recursive: true, force: true });
  }
});

test("打印的 cd 行在 shell 里能用：x&y、it's、- 与带空格的名字都正确加引号", {
  skip: process.platform === "win32",
}, async () => {
  for (const name of ["x&y", "it's", "-", "a b", "练习 07"]) {
    const dir = path.join(holder, "names", name);
    await mkdir(dir, { recursive: true });
    const shown = displayDir(dir, path.join(holder, "names"));
    const pwd = execFileSync("sh", ["-c", `cd ${shown} && pwd -P`], { cwd: path.join(holder, "names") });
    assert.equal(pwd.toString().trim(), await realpath(dir), `cd ${shown}`);
  }
  const outcome = await practice(["07", "it's&07"], holder);
  assert.ok(outcome !== "help" && outcome.message.includes("cd 'it'\\''s&07'"), "the next-steps cd line is quoted");
  assert.match(await readFile(path.join(holder, "it's&07", PRACTICE_MARKER), "utf8"), /"checkpoint": "07"/);
});
