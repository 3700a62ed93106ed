// tiny-pi records focused runs that passed by the content of the tree's compiled code: the same
// code at another path is the same key, any change to a compiled file is a new one.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { compiledDigest, focusedRunKey, passedBefore, recordPass } from "../src/cli/focused-pass-record.js";
import { withTempDir } from "./cli-support/practice-tree.js";

async function tree(root: string, loop: string): Promise<string> {
  await mkdir(path.join(root, "packages/pi-course/dist/src"), { recursive: true });
  await writeFile(path.join(root, "packages/pi-course/dist/src/agent-loop.js"), loop);
  await writeFile(path.join(root, "packages/pi-course/dist/src/agent-loop.js.map"), `{"sources":["${root}"]}`);
  return root;
}

test("聚焦测试的通过记录：键只取决于章、Node 版本与编译产物的内容；同样的代码换个目录键不变，改动任一编译文件就是新键，要重新测试", async () => {
  await withTempDir(async (dir) => {
    const first = await tree(path.join(dir, "a"), "export const x = 1;\n");
    const copy = await tree(path.join(dir, "b"), "export const x = 1;\n");
    assert.equal(
      focusedRunKey(compiledDigest(first), "07"),
      focusedRunKey(compiledDigest(copy), "07"),
      "同样的编译产物在另一个目录里是同一个键",
    );
    assert.notEqual(
      focusedRunKey(compiledDigest(first), "07"),
      focusedRunKey(compiledDigest(first), "08"),
      "每章各有自己的键",
    );
    const key = focusedRunKey(compiledDigest(first), "07");
    // A change no earlier run of this test has made: the temp folder's name is new each time.
    await writeFile(path.join(first, "packages/pi-course/dist/src/agent-loop.js"), `export const x = "${dir}";\n`);
    const changed = focusedRunKey(compiledDigest(first), "07");
    assert.notEqual(changed, key, "改动编译文件得到新键");
    assert.equal(passedBefore(changed), false, "新键没有通过记录：聚焦测试要重新运行");
    recordPass(changed);
    assert.equal(passedBefore(changed), true, "通过之后记下这个键");
  });
});
