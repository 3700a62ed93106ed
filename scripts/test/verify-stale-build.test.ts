// Verify never judges a stale build: a teaching file restored with its old modification time
// (cp -p, a backup, an editor's undo) is older than the output `tsc -b` left, so the build alone
// keeps the old code; verify compares the compiled output with the sources' contents and rebuilds.
import assert from "node:assert/strict";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { buildArgs, npmBuild, staleWorkspace } from "../lib/run/focused-run.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { isComplete, nextLab, verifyTree } from "../lib/verify/verify-labs.js";

const checkpoint = findCheckpoint("00");
const teachingFile = checkpoint.teachingFiles[0] ?? "";

let holder: string;
let dir: string;

before(async () => {
  holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-stale-"));
  dir = path.join(holder, "practice-00");
  await writeCheckpointTree(checkpoint, "practice", dir);
});

after(async () => {
  await rm(holder, { recursive: true, force: true });
});

test("verify 不评判过期的构建：正确的代码带着旧的修改时间写在编译过的错误代码上，verify 重新构建并给出全绿", async () => {
  const starter = await verifyTree(dir, checkpoint);
  assert.ok(starter.built && nextLab(starter.labs) !== undefined, "starter 还没有完成：Lab 0.1 是红的");

  const file = path.join(dir, ...teachingFile.split("/"));
  await writeFile(file, targetFiles(checkpoint).get(teachingFile) ?? "");
  const old = new Date("2001-02-03T04:05:06Z");
  await utimes(file, old, old);

  const plain = await npmBuild(dir, buildArgs(checkpoint));
  assert.ok(plain.ok, plain.output);
  assert.equal(
    await staleWorkspace(dir),
    teachingFile,
    "前提：只看修改时间的 tsc -b 留下了旧的输出，编译结果与源文件的内容不同",
  );

  const verification = await verifyTree(dir, checkpoint);
  assert.equal(isComplete(verification), true, "编译结果按源文件的内容核对：过期的输出被重新构建，正确的代码全绿");
  assert.equal(await staleWorkspace(dir), undefined, "重新构建之后，编译结果与源文件一致");
});
