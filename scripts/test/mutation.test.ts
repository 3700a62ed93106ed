// The focused tests are strong enough to notice the mistakes the chapter warns about: each
// mutant of the target loop (a find/replace on its source, built in a temp tree) turns at least
// one focused test red, and the chapter's diagnostic (`npm run diagnostic`) turns exactly the
// `非执行终态` tests red.
// A `find` that no longer occurs exactly once fails the test, so the check cannot pass silently.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { diagnosticMutation } from "../lib/mutation/diagnostic.js";
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

const documented = started(() => runNpm(["run", "-s", "diagnostic"], repoRoot));

test("诊断可以用一条命令复现：npm run diagnostic 列出恰好 2 项“非执行终态”失败，恢复后 2/2", async () => {
  mutatedFiles([diagnosticMutation(checkpoint)]); // throws when the manifest's find string is gone
  const { code, output } = await documented;
  assert.equal(code, 0, output);
  const red = output.split(/\r?\n/).filter((line) => line.startsWith("  ✗ "));
  const green = output.split(/\r?\n/).filter((line) => line.startsWith("  ✓ "));
  assert.equal(red.length, checkpoint.diagnostic.failing, output);
  assert.ok(
    red.every((line) => line.includes(checkpoint.diagnostic.pattern)),
    output,
  );
  assert.equal(green.length, 9 - checkpoint.diagnostic.failing, output);
  assert.match(output, /第一处差异：executionCount = 0/);
  assert.match(output, /恢复 target 后：名称含“非执行终态”的测试 2\/2 通过，全部 9\/9/);
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
  assert.throws(() => mutateSource("hay hay", mutation), /no longer occurs/);
  assert.throws(() => mutateSource("needle needle", mutation), /more than once/);
});
