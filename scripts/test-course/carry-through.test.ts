// A learner's own code goes through every `practice --from` step of the course, from the first
// checkpoint (00, a nearly empty workspace) to the last: in each practice directory the starters
// are filled in lab by lab the way the starters ask (comments and lab markers kept), and the next
// directory is made --from it. The last directory, with the reference file of its own chapter,
// passes every focused test: the changes later checkpoints make to carried files (09's
// takeSteering hook in the loop) landed where they belong, and the files written in 00–04 are
// still the learner's own.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { practice } from "../lib/cli/practice-command.js";
import { loadManifest } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { skipUnlessFullRun } from "../lib/run/node-sensitive.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import { verifyTreeAtOnce } from "../lib/verify/verify-labs.js";
import { filledStarters } from "../test/support/learner-copies.js";

const manifest = loadManifest();

test("starter 里每个 Lab 都照注释写完、注释保留，从第一个检查点起经过课程里每一步 --from（00 → 01 → … → 最后一章）：改动都应用上，每章的聚焦测试全部通过", {
  skip: skipUnlessFullRun(),
}, async () => {
  await withTempDir("pi-course-carry-through-", async (holder) => {
    let previous: string | undefined;
    for (const checkpoint of manifest.checkpoints) {
      const dir = path.join(holder, checkpoint.id);
      const argv = previous === undefined ? [checkpoint.id, dir] : [checkpoint.id, dir, "--from", previous];
      await practice(argv, holder);
      const last = checkpoint === manifest.checkpoints.at(-1);
      // The last chapter's own file is the reference one: only what was carried is the learner's.
      const own = last
        ? Object.fromEntries(checkpoint.teachingFiles.map((file) => [file, targetFiles(checkpoint).get(file) ?? ""]))
        : filledStarters(checkpoint);
      for (const [file, text] of Object.entries(own)) await writeFile(path.join(dir, file), text);
      const verification = await verifyTreeAtOnce(dir, checkpoint);
      assert.ok(verification.built, `${checkpoint.id}：写完的练习目录可以构建`);
      const done = verification.labs.filter((progress) => progress.done).map((progress) => progress.lab.id);
      assert.deepEqual(
        done,
        checkpoint.labs.map((lab) => lab.id),
        `${checkpoint.id}：每个 Lab 都通过`,
      );
      previous = dir;
    }
    assert.equal(manifest.checkpoints[0]?.id, "00", "课程从第 00 章开始");
    const last = path.join(holder, manifest.checkpoints.at(-1)?.id ?? "");
    const trace = await readFile(path.join(last, "packages/pi-core/src/trace.ts"), "utf8");
    assert.match(trace, /\/\/ Lab 0\.1 /, "学习者在 00 写的 trace.ts 一路带到最后一章，Lab 注释还在");
    const messages = await readFile(path.join(last, "packages/pi-core/src/messages.ts"), "utf8");
    assert.match(
      messages,
      /\/\/ Lab 3\.1 ①/,
      "messages.ts 是学习者在 03 写的版本（00 给出的参考版本在 03 换成了 starter）",
    );
    const loop = await readFile(path.join(holder, "09", "packages/pi-course/src/agent-loop.ts"), "utf8");
    assert.match(loop, /\/\/ Lab 7\.5 ①/, "学习者在 07 留下的 Lab 注释还在");
    assert.match(loop, /takeSteering/, "09 对 agent-loop.ts 的改动应用上了");
  });
});
