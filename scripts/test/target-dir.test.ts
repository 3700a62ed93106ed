import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { moveIntoPlace, type Rename } from "../lib/trees/target-dir.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-target-dir-"));
after(() => rm(holder, { recursive: true, force: true }));

/** A finished tree in a temp sibling and the learner's empty target folder beside it. */
async function emptyTargetAndTree(name: string): Promise<{ tmp: string; target: string }> {
  const target = path.join(holder, name);
  const tmp = path.join(holder, `.${name}.tmp-x`);
  await mkdir(target);
  await mkdir(tmp);
  await writeFile(path.join(tmp, "package.json"), "{}\n");
  return { tmp, target };
}

/** A rename that fails like Windows does onto an existing folder (EPERM), then with `code` once the folder is gone. */
function failingRename(code: string): { rename: Rename; calls: string[] } {
  const calls: string[] = [];
  const rename: Rename = async (_from, to) => {
    const exists = await stat(to).then(
      () => true,
      () => false,
    );
    calls.push(exists ? "onto existing folder" : "onto free name");
    throw Object.assign(new Error(`rename failed: ${code}`), { code: exists ? "EPERM" : code });
  };
  return { rename, calls };
}

test("写入空目录时改名失败：学习者原来的空目录仍然在，错误照常抛出", async () => {
  const { tmp, target } = await emptyTargetAndTree("empty-kept");
  const { rename, calls } = failingRename("EBUSY");
  await assert.rejects(moveIntoPlace(tmp, target, true, rename), { code: "EBUSY" });
  assert.deepEqual(calls, ["onto existing folder", "onto free name"], "先直接改名，再删空目录后重试");
  assert.equal((await stat(target)).isDirectory(), true, "空目录被重新建好");
  assert.deepEqual(await readdir(target), [], "仍是空目录");
  assert.deepEqual(await readdir(tmp), ["package.json"], "临时树原样留给调用者清理");
});

test("改名因其他原因失败（不是目标已存在）：不删除空目录，直接抛出", async () => {
  const { tmp, target } = await emptyTargetAndTree("empty-untouched");
  const before = (await stat(target)).ino;
  const calls: string[] = [];
  const rename: Rename = async () => {
    calls.push("rename");
    throw Object.assign(new Error("no space"), { code: "ENOSPC" });
  };
  await assert.rejects(moveIntoPlace(tmp, target, true, rename), { code: "ENOSPC" });
  assert.deepEqual(calls, ["rename"]);
  assert.equal((await stat(target)).ino, before, "还是同一个目录，没有被删掉重建");
});

test("空目录被完整的树替换；目标不存在时直接改名到位", async () => {
  const { tmp, target } = await emptyTargetAndTree("empty-replaced");
  await moveIntoPlace(tmp, target, true);
  assert.deepEqual(await readdir(target), ["package.json"]);
  await assert.rejects(stat(tmp), { code: "ENOENT" });

  const fresh = path.join(holder, "fresh");
  const freshTmp = path.join(holder, ".fresh.tmp-x");
  await mkdir(freshTmp);
  await writeFile(path.join(freshTmp, "a.txt"), "a");
  await moveIntoPlace(freshTmp, fresh, false);
  assert.deepEqual(await readdir(fresh), ["a.txt"]);
});

test("Windows 式改名（不能覆盖已有目录）：删掉空目录后改名成功", async () => {
  const { tmp, target } = await emptyTargetAndTree("empty-windows");
  const windowsLike: Rename = async (from, to) => {
    const exists = await stat(to).then(
      () => true,
      () => false,
    );
    if (exists) throw Object.assign(new Error("operation not permitted"), { code: "EPERM" });
    await rename(from, to);
  };
  await moveIntoPlace(tmp, target, true, windowsLike);
  assert.deepEqual(await readdir(target), ["package.json"]);
});

test("写练习目录到已有空目录、最后一步改名失败：空目录原样保留，临时目录已清理", async () => {
  const target = path.join(holder, "practice-07");
  await mkdir(target);
  const { rename: failing } = failingRename("EBUSY");
  await assert.rejects(writeCheckpointTree(findCheckpoint("07"), "practice", target, { rename: failing }), {
    code: "EBUSY",
  });
  assert.deepEqual(await readdir(target), [], "学习者的空目录还在，仍是空的");
  assert.deepEqual(
    (await readdir(holder)).filter((name) => name.startsWith(".practice-07.tmp-")),
    [],
    "临时兄弟目录已删除",
  );
});
