// Every integrity check of every checkpoint (lib/prove/integrity-checks.ts), run along the chain:
// each target is built once and serves the diagnostic and the next checkpoint's parent, each
// finished practice directory is the next checkpoint's `--from`. `checkpoint NN --prove` runs the
// same checks for one checkpoint alone. With --node-sensitive (lib/run/node-sensitive.ts) the checks no
// Node major can change are listed as skipped and nothing of theirs is made.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, test } from "node:test";
import { courseList } from "../lib/cli/course-list.js";
import { loadManifest } from "../lib/course/manifest.js";
import { integrityChecks } from "../lib/prove/integrity-checks.js";
import { ProveContext, starterFiles } from "../lib/prove/prove-context.js";
import { nodeSensitiveOnly, skipUnlessFullRun } from "../lib/run/node-sensitive.js";
import { checkTinyPiOnPractice, lastRowCheckpoint } from "./tiny-pi-on-practice.js";

const manifest = loadManifest();
const context = await ProveContext.create();
after(() => context.dispose());

const onlySensitive = nodeSensitiveOnly();
for (const checkpoint of manifest.checkpoints) {
  for (const check of integrityChecks(checkpoint, context, { nodeSensitiveOnly: onlySensitive })) {
    test(check.name, { skip: check.nodeSensitive ? false : skipUnlessFullRun() }, check.run);
  }
}

const payoff = lastRowCheckpoint(manifest.checkpoints);
test(`tiny-pi --from 完成的 ${payoff?.id ?? "?"} 练习目录：全部在学习者的代码上运行（一行说出），真实的 read 与 edit 改了临时工作区，会话 --resume 后 -p 接着回答`, {
  skip: payoff === undefined ? "课程里还没有 tiny-pi 最后一行对应的检查点" : false,
}, async () => {
  if (payoff !== undefined) await checkTinyPiOnPractice(payoff, context);
});

test("npm run course：每个检查点一行，读出最新练习目录的进度（完成、N/M 个 Lab、未开始）", {
  skip: skipUnlessFullRun(),
}, async () => {
  const last = manifest.checkpoints.at(-1);
  assert.ok(last, "清单有检查点");
  // The last checkpoint goes back to its starter: 0 labs done.
  for (const [file, content] of Object.entries(await starterFiles(last))) {
    await writeFile(path.join(context.insidePractice(last), ...file.split("/")), content);
  }
  const list = await courseList(manifest, context.inside, context.inside);
  const lines = list.split("\n");
  for (const checkpoint of manifest.checkpoints) {
    const line = lines.find((candidate) => candidate.startsWith(`  ${checkpoint.id}  ${checkpoint.title}`));
    assert.ok(line, `总览列出 ${checkpoint.id}`);
    const labs = checkpoint.labs.length;
    const state = checkpoint === last ? `${checkpoint.id}：0/${labs} 个 Lab` : `完成（${labs}/${labs} 个 Lab）`;
    assert.ok(line.endsWith(state) || line.includes(state), `${checkpoint.id}：${line}`);
  }
  const empty = await courseList(manifest, context.outside, path.join(context.outside, "no-practice"));
  assert.equal(empty.match(/未开始$/gm)?.length, manifest.checkpoints.length, "没有练习目录时每个检查点都未开始");
});
