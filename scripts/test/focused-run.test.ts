// What a pattern selects is read the same way from Node 20's report, which counts the tests the
// pattern filtered out as skipped, and from Node >= 22's, which leaves them out. The fixtures are
// real TAP reports of `node --test --test-name-pattern="取消与上限"` on the target, recorded with
// Node 20.20 and Node 22.23 (the whole `npm test` passes on both).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { waitFor } from "../../packages/pi-coding-agent/test/cli-support/processes.js";
import { parseTap } from "../../packages/pi-course-kit/src/tap-report.js";
import { findCheckpoint, focusedTestCount } from "../lib/course/manifest.js";
import { mutatedFiles } from "../lib/mutation/mutants.js";
import { buildTree, RunCancelledError, runFocused, suspectFiles, teachingNames } from "../lib/run/focused-run.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import { withTempTree } from "../lib/trees/temp-tree.js";
import { LearnerError, RunTimeoutError, UsageError } from "../lib/usage-error.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const report = (name: string) => parseTap(readFileSync(path.join(fixtures, name), "utf8"));

test("聚焦运行计数：Node 20 把未选中的测试记为 skipped，selected = tests − skipped = 3", () => {
  const result = report("focused-cancel-node20.tap");
  assert.deepEqual([result.tests, result.skipped, result.pass, result.fail], [9, 6, 3, 0]);
  assert.equal(result.selected, 3);
  assert.deepEqual(
    result.results.filter((entry) => entry.status === "pass").map((entry) => entry.name.split("：")[0]),
    ["取消与上限", "取消与上限", "取消与上限"],
  );
});

test("聚焦运行计数：Node ≥ 22 只报告选中的测试，selected 同样是 3", () => {
  const result = report("focused-cancel-node22.tap");
  assert.deepEqual([result.tests, result.skipped, result.pass, result.fail], [3, 0, 3, 0]);
  assert.equal(result.selected, 3);
  assert.equal(result.firstFailure, undefined);
});

test("聚焦运行：learner 的 loop 陷入同步死循环时，运行被终止并给出一行说明（到了文件的超时或整个运行的上限），而不是一直挂起或被说成异步挂起", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const checkpoint = findCheckpoint("07");
  const loopHead = "  for (let steps = 1; steps <= maxSteps; steps += 1) {\n";
  const spinning = mutatedFiles([
    {
      file: "packages/pi-course/src/agent-loop.ts",
      find: loopHead,
      replace: `  while (options.maxSteps !== 0) {}\n${loopHead}`,
    },
  ]);
  await withTempTree(checkpoint, "target", spinning, async (dir) => {
    const build = await buildTree(dir, checkpoint);
    assert.ok(build.ok, build.output);
    await assert.rejects(runFocused(dir, checkpoint, undefined, undefined, { runMs: 2_000 }), (error: Error) => {
      assert.ok(error instanceof RunTimeoutError, `RunTimeoutError, got ${String(error)}`);
      assert.ok(error instanceof LearnerError, "learner-facing: runCli prints it as one line");
      assert.ok(!(error instanceof UsageError), "a hang is not a usage mistake");
      assert.match(
        error.message,
        /^聚焦测试 2 秒后仍未结束，已被终止：检查 agent-loop\.ts 里是否有不会结束的循环（同步循环，或每一轮都立刻兑现的 await 循环：两者都不让出事件循环）。$/,
      );
      return true;
    });
    // With the file's own timeout first: Node 20 and 22 end the file there and report it under the
    // file's name (its timeout starts before any test's, so it is always met first); the trace's
    // event-loop beat stopped with the loop, so it is told as a loop. Node 24 waits for the run limit.
    await assert.rejects(
      runFocused(dir, checkpoint, undefined, undefined, { runMs: 6_000, fileMs: 2_000 }),
      (error: Error) => {
        assert.ok(error instanceof RunTimeoutError, `RunTimeoutError, got ${String(error)}`);
        assert.match(
          error.message,
          /^聚焦测试 [26] 秒后仍未结束，已被终止：检查 agent-loop\.ts 里是否有不会结束的循环（同步循环，或每一轮都立刻兑现的 await 循环：两者都不让出事件循环）。$/,
        );
        return true;
      },
    );
    // SIGKILL is sent at once, but a killed process can take a moment to leave the process table on a loaded machine.
    for (const start = Date.now(); processesRunningFrom(dir).length > 0 && Date.now() - start < 10_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(processesRunningFrom(dir), [], "the spinning test process is stopped too, not left behind");
  });
});

test("聚焦运行：learner 的 loop 等一个永远不 settle 的 Promise（事件循环还在跑）时，到了文件的超时被终止，说成等待而不是同步循环", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const checkpoint = findCheckpoint("07");
  const loopHead = "  for (let steps = 1; steps <= maxSteps; steps += 1) {\n";
  // A timer keeps the test process alive, so the file meets its own timeout before any test's.
  const waiting = mutatedFiles([
    {
      file: "packages/pi-course/src/agent-loop.ts",
      find: loopHead,
      replace: `  await new Promise(() => setInterval(() => {}, 1_000));\n${loopHead}`,
    },
  ]);
  await withTempTree(checkpoint, "target", waiting, async (dir) => {
    const build = await buildTree(dir, checkpoint);
    assert.ok(build.ok, build.output);
    // One lab's tests, so that a Node whose tests meet their own timeouts one after another ends soon.
    const pattern = checkpoint.labs[0]?.pattern;
    const outcome = await runFocused(dir, checkpoint, pattern, undefined, { runMs: 60_000, fileMs: 3_000 }).then(
      (result) => result,
      (error: Error) => error,
    );
    if (outcome instanceof Error) {
      // Node 20 and 22: the file's timeout comes first, and the beat tells the wait from a loop.
      assert.ok(outcome instanceof RunTimeoutError, `RunTimeoutError, got ${String(outcome)}`);
      assert.match(
        outcome.message,
        /^聚焦测试 3 秒后仍未结束，已被终止：测试在等一个永远不 settle 的 Promise（[^）]+）：检查 Lab 7\.1 写的 agent-loop\.ts。$/,
      );
      assert.ok(outcome.test !== undefined, "the stopped test is named");
    } else {
      // Node 24: each test meets its own timeout first, a hung test verify tells as a promise that never settles.
      assert.equal(outcome.firstFailure?.hung, true, `a hung test, got ${JSON.stringify(outcome.firstFailure)}`);
    }
  });
});

/** Command lines of live processes that mention `dir` (Linux /proc; elsewhere nothing to check). */
function processesRunningFrom(dir: string): string[] {
  if (!existsSync("/proc/self/cmdline")) return [];
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (commandLine.includes(dir)) found.push(`${pid}: ${commandLine}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

test("聚焦运行：报告的测试比清单少（Node 的 --test-force-exit 在负载下会丢掉文件最后的结果）时重跑一次，得到完整的计数", async () => {
  const real = findCheckpoint("07");
  const checkpoint = { ...real, focusedRun: "packages/x/dist/test/07-*.test.mjs" };
  const total = focusedTestCount(checkpoint);
  await withTempDir("pi-course-short-run-", async (dir) => {
    const folder = path.join(dir, "packages", "x", "dist", "test");
    await mkdir(folder, { recursive: true });
    // The first run registers one test, as a run that lost its last verdicts reports; later runs all of them.
    await writeFile(
      path.join(folder, "07-short.test.mjs"),
      `import { test } from "node:test";
import { existsSync, writeFileSync } from "node:fs";
const seen = new URL("./seen", import.meta.url);
const count = existsSync(seen) ? ${total} : 1;
writeFileSync(seen, "");
for (let i = 0; i < count; i += 1) test(\`t\${i}\`, () => {});
`,
    );
    const result = await runFocused(dir, checkpoint);
    assert.equal(result.selected, total, "the short run was repeated");
    assert.equal(result.pass, total);
  });
});

test("挂起时先指向正在运行的 Lab 写的文件，再提本章的其他文件；不是一个 Lab 的运行时列出全部", () => {
  const checkpoint = findCheckpoint("13");
  const lab = checkpoint.labs.find((candidate) => candidate.id === "13.3");
  assert.ok(lab);
  const named = suspectFiles(checkpoint, lab.pattern);
  assert.match(named, /^Lab 13\.3 写的 [^（]*runtime\.ts/, named);
  assert.match(named, /（也可能在本章的 [^）]*open\.ts[^）]*）$/, named);
  assert.equal(suspectFiles(checkpoint, undefined), teachingNames(checkpoint), "整章的运行：全部教学文件");
});

test("聚焦运行被终止时，测试在系统临时目录里建的目录也随之删除（被杀的测试进程走不到自己的 finally）", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const checkpoint = findCheckpoint("07");
  // A focused test that makes a temp folder, says where, and never ends.
  const leaving = {
    "packages/pi-course/test/07-zz-leaves-temp.test.ts": [
      'import { mkdtempSync, renameSync, writeFileSync } from "node:fs";',
      'import os from "node:os";',
      'import path from "node:path";',
      'import { test } from "node:test";',
      'test("makes a temp folder, then spins", () => {',
      '  const made = mkdtempSync(path.join(os.tmpdir(), "left-by-a-stopped-test-"));',
      '  writeFileSync("made-by-test.tmp", made);',
      '  renameSync("made-by-test.tmp", "made-by-test.txt");',
      "  for (;;) {}",
      "});",
      "",
    ].join("\n"),
  };
  await withTempTree(checkpoint, "target", leaving, async (dir) => {
    const build = await buildTree(dir, checkpoint);
    assert.ok(build.ok, build.output);
    // Stopped once the test has made its folder (its note appears whole, by a rename), however long
    // a loaded machine takes to get there: a stop after a fixed time could come before it.
    const note = path.join(dir, "made-by-test.txt");
    const stop = new AbortController();
    let settled = false;
    const running = runFocused(dir, checkpoint, undefined, stop.signal).finally(() => {
      settled = true;
    });
    await waitFor("the focused test to make its temp folder", () => existsSync(note) || settled, HANG_GUARD_MS);
    stop.abort();
    await assert.rejects(running, RunCancelledError);
    const made = readFileSync(note, "utf8");
    assert.ok(path.isAbsolute(made), `the test wrote where it made its folder: ${made}`);
    assert.equal(existsSync(made), false, `被终止的运行的临时目录已删除：${made}`);

    // A run killed outright (SIGKILL) leaves its folder: the next run removes it, never a live run's.
    const dead = 2 ** 22 + 17;
    const left = path.join(os.tmpdir(), `pi-course-focused-run-pid${dead}-abcdef`);
    const live = path.join(os.tmpdir(), `pi-course-focused-run-pid${process.pid}-abcdef`);
    for (const folder of [left, live]) mkdirSync(path.join(folder, "made-by-a-test"), { recursive: true });
    try {
      await assert.rejects(runFocused(dir, checkpoint, undefined, undefined, { runMs: 2_000 }), RunTimeoutError);
      assert.equal(existsSync(left), false, "已不在的进程留下的运行临时目录，下一次运行时删除");
      assert.equal(existsSync(live), true, "还在运行的进程的目录不动");
    } finally {
      rmSync(live, { recursive: true, force: true });
    }
  });
});
