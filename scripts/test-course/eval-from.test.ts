// `npm run eval -- --from <a finished 14 tree>`: the whole suite, both parts, on the tree's own
// harness, Runtime, loop, tools, session and compaction, loaded through tiny-pi's loader (a fresh
// build, every chapter's focused tests passing). The finished tree is checkpoint 14's target.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { buildTree } from "../lib/run/focused-run.js";
import { withTempTree } from "../lib/trees/temp-tree.js";

const evalCli = path.join(repoRoot, "packages/pi-coding-agent/dist/src/eval-cli/main.js");

test("npm run eval -- --from 一个完成的第 14 章练习目录：两部分的任务都在它自己的代码上通过，退出码 0", async () => {
  await withTempTree(findCheckpoint("14"), "target", {}, async (dir) => {
    const build = await buildTree(dir, findCheckpoint("14"));
    assert.ok(build.ok, `完成的树可以构建（${build.errors.join("; ")}）`);
    const run = await runNode([evalCli, "--from", dir], dir);
    assert.equal(run.code, 0, `每个任务都通过时以 0 退出（输出：${run.output.slice(-600)}）`);
    assert.match(
      run.output,
      new RegExp(`评测：${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} 里你写的代码`),
      "表头写明评测的是这个目录里的代码",
    );
    assert.match(run.output, /^long-compaction +通过/m, "练习部分在这棵树上通过");
    assert.match(run.output, /^resume-interrupted +通过/m, "留出部分也在这棵树上运行并通过");
  });
});
