// What verify shows of a failure, read from real TAP reports: an assertion without a message of
// its own still shows the first lines of its actual/expected diff, on Node 20 and Node 24. The
// fixtures are `node --test --test-reporter=tap` on a file whose first test asserts
// assert.deepEqual({ reason: "aborted", steps: 1, messages: ["a", "b"] }, { …, steps: 0, … }).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseTap } from "../../packages/pi-course-kit/src/tap-report.js";
import { findCheckpoint } from "../lib/course/manifest.js";
import { plainStyle } from "../lib/terminal-style.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import { formatVerification } from "../lib/verify/verify-report.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

for (const node of ["node20", "node24"]) {
  test(`未命名的断言（${node}）：第一条失败带上 actual/expected 差异的前几行，verify 打印它们`, () => {
    const report = parseTap(readFileSync(path.join(fixtures, `unnamed-assertion-${node}.tap`), "utf8"));
    const failure = report.firstFailure;
    assert.ok(failure, "有失败");
    assert.equal(failure.error, "Expected values to be strictly deep-equal:");
    assert.deepEqual(failure.diff, ["+   steps: 1", "-   steps: 0"], "只有不同的行");
    assert.equal(failure.hung, false);

    const checkpoint = findCheckpoint("07");
    const [lab] = checkpoint.labs;
    assert.ok(lab);
    const printed = formatVerification(
      { built: true, labs: [{ lab, passed: 0, selected: 1, done: false, firstFailure: failure }] },
      { checkpoint, dir: "practice/07", style: plainStyle },
    );
    const after = printed.slice(printed.indexOf("Expected values to be strictly deep-equal:"));
    assert.match(after, /^Expected values to be strictly deep-equal:\n {6}\+ {3}steps: 1\n {6}- {3}steps: 0\n/);
  });
}

test("断言说明与实际值里的反斜杠、引号和换行照原样读出：Node 的 TAP 用 util.inspect 的转义，不是 YAML 的", async () => {
  const rule = String.raw`错误文字说明原因，应当匹配 /^Tool "ghost" is not registered\.$/`;
  const actual = "C:\\work\\it's\tend";
  const tap = await withTempDir("pi-course-tap-", async (dir) => {
    const file = path.join(dir, "escapes.test.mjs");
    const source = [
      'import assert from "node:assert/strict";',
      'import { test } from "node:test";',
      `test("x", () => { assert.match(${JSON.stringify(actual)}, /^never$/, ${JSON.stringify(rule)}); });`,
    ].join("\n");
    await writeFile(file, source);
    // Without the parent runner's NODE_TEST_CONTEXT, the child reports TAP instead of to this runner.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    return new Promise<string>((resolve) => {
      execFile(process.execPath, ["--test", "--test-reporter=tap", file], { env }, (_error, stdout) => resolve(stdout));
    });
  });
  const failure = parseTap(tap).firstFailure;
  assert.ok(failure, "有失败");
  assert.equal(failure.error, rule, "断言说明里的 \\. 是一个反斜杠，不是两个");
  assert.equal(failure.actual, actual, "实际值里的反斜杠、引号与制表符照原样");
});

/** A report of a file whose process died, as Node 20's runner writes it: stderr as comments, then the file's failure. */
function diedReport(stderr: string[], fields: { exitCode: string; signal: string }): string {
  return [
    "TAP version 13",
    ...stderr.map((line) => `# ${line}`),
    "# Subtest: /tmp/x.test.js",
    "not ok 1 - /tmp/x.test.js",
    "  ---",
    "  duration_ms: 1",
    "  failureType: 'testCodeFailure'",
    `  exitCode: ${fields.exitCode}`,
    `  signal: ${fields.signal}`,
    "  error: 'test failed'",
    "  code: 'ERR_TEST_FAILURE'",
    "  ...",
    "1..1",
    ...["tests 1", "suites 0", "pass 0", "fail 1", "cancelled 0", "skipped 0", "todo 0"].map((line) => `# ${line}`),
  ].join("\n");
}

test("死掉的测试进程：V8 的致命错误或信号被读成 crashed，普通的文件失败不是", () => {
  const invalidSize = parseTap(
    diedReport(
      [
        "\\#",
        "\\# Fatal error in , line 0",
        "\\# Fatal JavaScript invalid size error 174895934 (see crbug.com/1201626)",
      ],
      { exitCode: "~", signal: "'SIGTRAP'" },
    ),
  );
  assert.equal(invalidSize.firstFailure?.crashed, "Fatal JavaScript invalid size error 174895934", "V8 说出的那一句");
  const killed = parseTap(diedReport([], { exitCode: "~", signal: "'SIGKILL'" }));
  assert.equal(killed.firstFailure?.crashed, "signal SIGKILL", "没有致命错误的文字时说出信号");
  const thrown = parseTap(diedReport(["Error: top-level throw"], { exitCode: "1", signal: "~" }));
  assert.equal(thrown.firstFailure?.crashed, undefined, "以退出码 1 结束的文件（顶层抛出）不是崩溃");
});

test("差异的一侧很长（多出一整个对象）时，摘录仍然两侧都有：期望的那几行不会被实际值挤掉", async () => {
  const tap = await withTempDir("pi-course-tap-", async (dir) => {
    const file = path.join(dir, "long-side.test.mjs");
    const actual = Array.from({ length: 8 }, (_, index) => ({ name: `extra-${index}` }));
    const source = [
      'import assert from "node:assert/strict";',
      'import { test } from "node:test";',
      `test("x", () => { assert.deepEqual(${JSON.stringify([...actual, { name: "kept" }])}, [{ name: "wanted" }], "规则"); });`,
    ].join("\n");
    await writeFile(file, source);
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    return new Promise<string>((resolve) => {
      execFile(process.execPath, ["--test", "--test-reporter=tap", file], { env }, (_error, stdout) => resolve(stdout));
    });
  });
  const diff = parseTap(tap).firstFailure?.diff ?? [];
  assert.ok(diff.length <= 6, `摘录最多 6 行：${JSON.stringify(diff)}`);
  assert.ok(
    diff.every((line) => /[\p{L}\p{N}]/u.test(line.slice(1))),
    `只有括号与逗号的行（-   {）不占摘录的位置：${JSON.stringify(diff)}`,
  );
  assert.ok(
    diff.some((line) => line.startsWith("-") && line.includes("wanted")),
    `摘录里有期望的一侧：${JSON.stringify(diff)}`,
  );
  assert.ok(
    diff.some((line) => line.startsWith("+")),
    `摘录里也有实际的一侧：${JSON.stringify(diff)}`,
  );
});

test("assert.throws 用对象检查、抛出的错误文字有好几行：实际抛出的错误整段读出，verify 写出它", async () => {
  const tap = await withTempDir("pi-course-tap-", async (dir) => {
    const file = path.join(dir, "multi-line-throw.test.mjs");
    const source = [
      'import assert from "node:assert/strict";',
      'import { test } from "node:test";',
      'test("x", () => { assert.throws(() => { throw new Error(\'Unhandled value: {\\n  "a": 1\\n}\'); }, { message: \'Unhandled value: {"a":1}\' }, "一行，不加缩进"); });',
    ].join("\n");
    await writeFile(file, source);
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    return new Promise<string>((resolve) => {
      execFile(process.execPath, ["--test", "--test-reporter=tap", file], { env }, (_error, stdout) => resolve(stdout));
    });
  });
  const failure = parseTap(tap).firstFailure;
  assert.ok(failure, "有失败");
  assert.equal(failure.error, "一行，不加缩进", "第一行是断言的规则");
  assert.equal(failure.actual, 'Unhandled value: {\n  "a": 1\n}', "实际抛出的错误整段照原样");
  const checkpoint = findCheckpoint("01");
  const [lab] = checkpoint.labs;
  assert.ok(lab);
  const printed = formatVerification(
    { built: true, labs: [{ lab, passed: 0, selected: 1, done: false, firstFailure: failure }] },
    { checkpoint, dir: "practice/01", style: plainStyle },
  );
  assert.match(printed, /实际抛出的错误：Unhandled value: \{\n\s+"a": 1\n\s+\}/, printed);
});
