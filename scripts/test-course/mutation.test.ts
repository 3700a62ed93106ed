// The focused tests are strong enough to notice the mistakes the chapter warns about: each
// mutant of the target loop (a find/replace on its source, built in a temp tree) turns at least
// one focused test red. (Every checkpoint's diagnostic is checked in checkpoint-integrity.test.ts.)
// A `find` that no longer occurs exactly once fails the test, so the check cannot pass silently.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { loopMutants, type Mutant, mutatedFiles, mutateSource, runTargetWith } from "../lib/mutation/mutants.js";
import { runNpm } from "../lib/run/child-process.js";

const checkpoint = findCheckpoint("07");
const loop = "packages/pi-course/src/agent-loop.ts";

/** Starts `run` now (the trees build side by side) and lets a test await it later without an unhandled rejection. */
function started<T>(run: () => Promise<T>): Promise<T> {
  const promise = run();
  promise.catch(() => undefined);
  return promise;
}

test("npm run diagnostic -- <编号> 把编号交给诊断：不存在的编号一行说明、退出码非零", async () => {
  const { code, output } = await runNpm(["run", "-s", "diagnostic", "--", "99"], repoRoot);
  assert.notEqual(code, 0);
  assert.match(output.trim(), /^没有检查点 99：可用的检查点是 /);
  assert.doesNotMatch(output.trim(), /\n/);
});

const mutants: Mutant[] = Object.values(loopMutants);

for (const mutant of mutants) {
  const run = started(async () => runTargetWith(checkpoint, mutatedFiles(mutant.mutations)));
  test(`变异：${mutant.name}，至少一项聚焦测试变红`, async () => {
    const result = await run;
    assert.ok(result.fail >= 1, `${mutant.name}：${result.pass}/${result.tests} 仍全部通过`);
  });
}

test("变异的 find 不再恰好出现一次时大声失败，而不是悄悄通过", () => {
  const mutation = { file: loop, find: "needle", replace: "pin" };
  assert.equal(mutateSource("hay needle hay", mutation), "hay pin hay");
  assert.throws(() => mutateSource("hay hay", mutation), /改动的 find 不在/);
  assert.throws(() => mutateSource("needle needle", mutation), /出现不止一次/);
});
