// What differs between the Node majors learners run (20, 22, 24), observed live with the Node
// that runs this suite: CI runs the suite on the machine's Node 20 and again on Node 22 and 24
// (`npm run test:matrix`), so each expectation here is checked on every side of every difference.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { parseTap } from "../../packages/pi-course-kit/src/tap-report.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";

const major = Number(process.versions.node.split(".")[0]);
const HANG_LIMIT_MS = 10_000;

const SAMPLE = `import { test } from "node:test";
test("选中 一", () => {});
test("选中 二", () => {});
test("其他", () => {});
test("挂起", () => new Promise(() => { setInterval(() => {}, 1000); }));
`;

/** Runs `node <args>` in a temp folder holding `sample.test.mjs`. */
function withSample<T>(use: (dir: string) => Promise<T>): Promise<T> {
  return withTempDir("pi-course-node-version-", async (dir) => {
    await writeFile(path.join(dir, "sample.test.mjs"), SAMPLE);
    return use(dir);
  });
}

test(`Node ${process.versions.node}：--test-name-pattern 选中的数量读作 tests − skipped（Node 20 把滤掉的记为 skipped）`, async () => {
  await withSample(async (dir) => {
    const { output } = await runNode(
      ["--test", "--test-reporter=tap", "--test-name-pattern=选中", "sample.test.mjs"],
      dir,
      60_000,
    );
    const result = parseTap(output);
    assert.equal(result.selected, 2, "模式选中 2 项");
    assert.equal(result.pass, 2, "选中的 2 项通过");
    assert.equal(result.fail, 0, "没有失败：挂起的测试没有被选中");
    assert.equal(result.skipped, major < 22 ? 2 : 0, "Node 20 把滤掉的 2 项计为 skipped，Node ≥ 22 不报告它们");
  });
});

test(`Node ${process.versions.node}：--test-timeout 加 --test-force-exit 让留着定时器的挂起测试结束运行；Node 24 报出测试名，Node 20 与 22 报出文件名`, async () => {
  await withSample(async (dir) => {
    // Node 20 and 22 time the whole file: the limit must outlast the process's start on a loaded
    // machine (300 ms did not), or the three quick tests are cut off with the hung one.
    const { code, output } = await runNode(
      ["--test", "--test-reporter=tap", `--test-timeout=${HANG_LIMIT_MS}`, "--test-force-exit", "sample.test.mjs"],
      dir,
      60_000,
    );
    assert.notEqual(code, null, "运行自己结束，没有等到外层的时间上限");
    const result = parseTap(output);
    assert.equal(result.pass, 3, "其余 3 项照常通过");
    assert.match(result.firstFailure?.error ?? "", new RegExp(`timed out after ${HANG_LIMIT_MS}ms`), "失败原因是超时");
    const named = result.firstFailure?.test ?? "";
    // Measured: 20.20.2 and 22.23.5 name the file, 24.22.3 the test.
    if (major >= 24) assert.equal(named, "挂起", "Node 24 把超时记在挂起的测试名下");
    else assert.match(named, /sample\.test\.mjs$/, "Node 20 与 22 把超时记在整个文件名下");
  });
});

test(`Node ${process.versions.node}：不经 shell 的 *.test.mjs 参数只在 Node ≥ 21 被展开，所以工具链总是传入展开后的文件名`, async () => {
  await withSample(async (dir) => {
    const { code } = await runNode(["--test", "--test-name-pattern=选中", "*.test.mjs"], dir, 60_000);
    if (major >= 21) assert.equal(code, 0, "Node ≥ 21 自己展开 glob 并运行选中的测试");
    else assert.notEqual(code, 0, "Node 20 不展开 glob：找不到名为 *.test.mjs 的文件");
  });
});
