// `checkpoint --new`: a new checkpoint in the repository's conventions, written all or nothing, in
// a copy of this repository (its tracked and new files, the main node_modules linked in).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-new-"));
after(() => rm(holder, { recursive: true, force: true }));

const last = loadManifest().checkpoints.at(-1)?.id ?? "09";
const next = String(Number(last) + 1).padStart(2, "0");
/** A free id before the last checkpoint, if the course has a gap: --new refuses it, new checkpoints go at the end. */
const earlier = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0")).find(
  (id) => id < last && !loadManifest().checkpoints.some((checkpoint) => checkpoint.id === id),
);
const first = loadManifest().checkpoints[0]?.id ?? "00";

/** A copy of the repository's files (no build output, no practice directories) with node_modules linked. */
async function repositoryCopy(name: string): Promise<string> {
  const dir = path.join(holder, name);
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: repoRoot })
    .toString()
    .split("\0")
    .filter((file) => file !== "" && !file.startsWith("practice/"));
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await cp(path.join(repoRoot, file), path.join(dir, file)).catch(() => undefined);
  }
  await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "junction");
  return dir;
}

const checkpointCli = (dir: string, args: string[]) =>
  runNode(["--import", "tsx", "scripts/checkpoint.ts", ...args], dir, 120_000);

const request = [
  "--new",
  next,
  "--title",
  "一句话目标",
  "--chapter",
  "新的一章：一句话",
  "--package",
  "@pi/coding-agent",
  "--teaching",
  "packages/pi-coding-agent/src/scaffold-demo/demo.ts",
  "--changes",
  "packages/pi-coding-agent/src/index.ts",
  "--labs",
  "2",
  "--test-name",
  "demo",
];

test(`--new ${next}：写出清单条目、教学文件骨架、starter、聚焦测试、带命令块的指南、README 的一行和 before/；--check 只列出待填写的各处`, async () => {
  const dir = await repositoryCopy("made");
  const made = await checkpointCli(dir, request);
  assert.equal(made.code, 0, `--new 成功：${made.output}`);
  const own = `packages/pi-course/checkpoints/${next}`;
  for (const file of [
    "packages/pi-coding-agent/src/scaffold-demo/demo.ts",
    `${own}/starter/src/scaffold-demo/demo.ts`,
    `packages/pi-coding-agent/test/${next}-demo.test.ts`,
    `${own}/README.md`,
    `${own}/before/packages/pi-coding-agent/src/index.ts`,
  ]) {
    assert.ok(made.output.includes(file), `写出并列出 ${file}`);
  }
  const before = await readFile(path.join(dir, own, "before/packages/pi-coding-agent/src/index.ts"), "utf8");
  assert.equal(
    before,
    await readFile(path.join(repoRoot, "packages/pi-coding-agent/src/index.ts"), "utf8"),
    "before/ 是改动前的版本",
  );
  const starter = await readFile(path.join(dir, own, "starter/src/scaffold-demo/demo.ts"), "utf8");
  assert.match(starter, new RegExp(`// Lab ${Number(next)}\\.1 ①`), "starter 按 // Lab N.M ① 的约定");
  assert.match(
    starter,
    new RegExp(`throw new Error\\("Lab ${Number(next)}\\.2 （待填写）第 2 段 尚未实现"\\)`),
    "每段 Lab 一个桩",
  );
  const guide = await readFile(path.join(dir, own, "README.md"), "utf8");
  for (const heading of ["## 场景", `## Checkpoint ${next} · 一句话目标`, "## 走读代码", "## 本章验收", "## 小结"]) {
    assert.ok(guide.includes(heading), `指南有“${heading}”`);
  }
  assert.ok(guide.includes("## 命令"), "指南有这一章的命令块");
  assert.ok(guide.includes(`npm run practice -w @pi/course -- ${next}`), "命令块里有新建练习目录的命令");
  const readme = await readFile(path.join(dir, "README.md"), "utf8");
  assert.ok(
    readme.split("\n").some((line) => line.startsWith(`| ${next} `) && line.includes(`(${own}/README.md)`)),
    "README 的课程表有这一章的一行，链接到它的指南",
  );

  const check = await checkpointCli(dir, ["--check"]);
  assert.notEqual(check.code, 0, "--check 报出还没填的地方");
  const problems = check.output.split("\n").filter((line) => line.startsWith("  "));
  assert.ok(problems.length > 0, check.output);
  for (const line of problems) {
    assert.match(
      line,
      new RegExp(`^  (checkpoint ${next}：|README\\.md 还有)`),
      `只报新检查点与 README 的占位：${line}`,
    );
  }
  assert.ok(
    problems.some((line) => line.includes("待填写的字段")),
    "列出清单里待填写的字段",
  );
  assert.ok(
    problems.some((line) => line.includes("diagnostic.find")),
    "列出诊断还没写",
  );
  assert.doesNotMatch(check.output, /\n\s+at /, "没有调用栈");
  const lint = await runNode(
    [path.join(repoRoot, "node_modules/@biomejs/biome/bin/biome"), "check", "."],
    dir,
    120_000,
  );
  assert.equal(lint.code, 0, `写出的文件通过 Biome：${lint.output.slice(0, 2000)}`);
});

test("--new 的错误（编号已有或不在最后、包不存在、缺少选项）：一处一行，退出码非零，什么都不写", async () => {
  const dir = await repositoryCopy("refused");
  const before = await snapshotDir(dir);
  const wrong = await checkpointCli(dir, [
    "--new",
    earlier ?? first,
    "--title",
    "x",
    "--chapter",
    "y",
    "--package",
    "@pi/nope",
    "--teaching",
    "packages/pi-coding-agent/src/x.ts",
  ]);
  assert.notEqual(wrong.code, 0, "退出码非零");
  // A course with no gap (00 onwards) has no free id before the last: then an existing one.
  if (earlier === undefined) assert.match(wrong.output, new RegExp(`检查点 ${first} 已经存在`), "编号已经有了");
  else assert.match(wrong.output, /新检查点要排在最后：编号要大于/, "编号要排在最后");
  assert.match(wrong.output, /没有名为 @pi\/nope 的 workspace 包/, "包名不对");
  assert.doesNotMatch(wrong.output, /\n\s+at /, "没有调用栈");
  const missing = await checkpointCli(dir, ["--new", next]);
  assert.notEqual(missing.code, 0, "缺少选项时退出码非零");
  assert.match(missing.output, /还缺：--title .* --chapter .* --package .* --teaching/, "一行列出缺的选项及示例");
  assert.deepEqual(await snapshotDir(dir), before, "什么都没写");
});
