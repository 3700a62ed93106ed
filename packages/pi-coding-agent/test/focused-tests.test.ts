// tiny-pi's focused run (--from, --loop, --tools-from) gives the tests their own temp folder and
// removes it with the run: a test that makes a folder in os.tmpdir() and does not remove it (or is
// stopped before its `finally`) leaves nothing in the user's temp folder.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { runFocusedTests } from "../src/cli/focused-tests.js";

test("tiny-pi 的聚焦运行：测试在系统临时目录里建的目录随运行删除，不留在用户的临时目录里", async () => {
  const tree = await mkdtemp(path.join(os.tmpdir(), "tiny-pi-focused-tree-"));
  try {
    await writeFile(
      path.join(tree, "leaves.test.mjs"),
      [
        'import { mkdtempSync, writeFileSync } from "node:fs";',
        'import os from "node:os";',
        'import path from "node:path";',
        'import { test } from "node:test";',
        'test("makes a temp folder and keeps it", () => {',
        '  writeFileSync("made.txt", mkdtempSync(path.join(os.tmpdir(), "left-by-a-test-")));',
        "});",
        "",
      ].join("\n"),
    );
    const verdict = await runFocusedTests(tree, ["leaves.test.mjs"]);
    assert.equal(verdict.passed, true, "the test itself passes");
    const made = await readFile(path.join(tree, "made.txt"), "utf8");
    assert.ok(path.isAbsolute(made), `the test said where it made its folder: ${made}`);
    assert.equal(existsSync(made), false, `运行结束后测试的临时目录已删除：${made}`);
  } finally {
    await rm(tree, { recursive: true, force: true });
  }
});
