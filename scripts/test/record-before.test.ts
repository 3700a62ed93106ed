// The maintainers' commands: `--record-before` keeps the parent's version of a file a checkpoint is
// about to change, and `--check` reports whether the manifest and its snapshots fit together.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { checkpoint } from "../lib/cli/checkpoint-command.js";
import { findCheckpoint } from "../lib/course/manifest.js";
import { recordBefore } from "../lib/course/record-before.js";
import { parentFiles } from "../lib/course/snapshots.js";
import { snapshotDir } from "../lib/trees/dir-snapshot.js";
import { UsageError } from "../lib/usage-error.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-record-before-"));
after(() => rm(holder, { recursive: true, force: true }));

test("--record-before 把文件在检查点 parent 中的版本写到 checkpoints/<编号>/before/<路径>；再记录一次是一行说明", async () => {
  const seven = findCheckpoint("07");
  const file = "packages/pi-core/src/index.ts";
  const written = await recordBefore(seven, file, holder);
  assert.equal(written, `packages/pi-course/checkpoints/07/before/${file}`);
  assert.equal(
    await readFile(path.join(holder, written), "utf8"),
    parentFiles(seven).get(file),
    "内容是 parent 的版本",
  );
  const before = await snapshotDir(holder);
  await assert.rejects(recordBefore(seven, file, holder), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /已经存在：检查点 07 已记录过这个文件改动前的版本/);
    return true;
  });
  assert.deepEqual(await snapshotDir(holder), before, "什么都没写");
});

test("--record-before 拒绝 parent 里没有的文件（本章新增的文件应写进 target.adds），什么都不写", async () => {
  const before = await snapshotDir(holder);
  await assert.rejects(
    recordBefore(findCheckpoint("06"), "packages/pi-core/src/tools.ts", holder),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /^packages\/pi-core\/src\/tools\.ts 不在检查点 06 的 parent 里/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    },
  );
  assert.deepEqual(await snapshotDir(holder), before);
});

test("checkpoint --check：清单与快照一致时说明有几个检查点；--check 不接受编号", async () => {
  assert.match(await checkpoint(["--check"], holder), /^课程一致：\d+ 个检查点（\d{2}、\d{2}/);
  await assert.rejects(
    checkpoint(["--check", "07"], holder),
    /--check 不接受参数.*-- --check.*-- 07 --prove/,
    "--check 带编号被拒绝时说出能用的两种写法",
  );
  await assert.rejects(checkpoint(["07", "--check", "--diff"], holder), /一次只能用一个/);
});
