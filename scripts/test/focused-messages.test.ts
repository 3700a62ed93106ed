// Every checkpoint's focused test names the chapter rule behind each assertion: an assertion that
// compares or checks a value carries its own message, so verify's first failure says which rule
// was broken instead of Node's generic "Expected values to be strictly equal:".
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { unnamedAssertions } from "../lib/course/check/rule-messages.js";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";

test("每个检查点的聚焦测试：比较与检查值的断言都带着它检查的章节规则（自己的说明）", () => {
  const files = [...new Set(loadManifest().checkpoints.map((checkpoint) => checkpoint.focusedTest))];
  assert.ok(files.length > 0, "清单列出聚焦测试");
  const unnamed = files.flatMap((file) => unnamedAssertions(file, readFileSync(path.join(repoRoot, file), "utf8")));
  assert.deepEqual(unnamed, [], "这些断言没有说明它检查的规则");
});
