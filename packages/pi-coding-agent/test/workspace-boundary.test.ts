import assert from "node:assert/strict";
import { mkdtemp, readdir, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { isInside, resolveWorkspacePath } from "../src/tools/workspace-path.js";
import { resultText, withWorkspace, workspaceTool } from "./workspace-fixture.js";

test("边界：指向不存在目标的链接不被跟随，write 不会在工作区外创建它的目标", async () => {
  await withWorkspace(async (ws) => {
    const target = path.join(ws.outside, "created-by-link.txt");
    await symlink(target, path.join(ws.root, "dangling.txt"));
    const write = await ws.call("write", { path: "dangling.txt", content: "x" });
    assert.equal(write.isError, true);
    assert.match(resultText(write), /symlink whose target does not exist/);
    assert.ok(resultText(write).includes(ws.root), "the refusal names the workspace");
    assert.deepEqual(await readdir(ws.outside), ["secret.txt"], "nothing was created outside");
  });
});

test("边界：工作区根本身经过 symlink 时照常工作，越界仍被拒绝", async () => {
  await withWorkspace(async (ws) => {
    const linkedRoot = path.join(ws.outside, "linked-workspace");
    await symlink(ws.root, linkedRoot);
    await ws.put("README.md", "# tiny-pi\n");
    const read = workspaceTool(linkedRoot, "read");
    assert.equal(resultText(await read.execute({ path: "README.md" }, {})), "# tiny-pi");
    await assert.rejects(read.execute({ path: "../secret.txt" }, {}), /outside the workspace/);
  });
});

test("边界：工作区内的绝对路径、以 .. 开头的文件名和 ./ 路径都在工作区内", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("..notes.txt", "dots\n");
    await ws.put("docs/a.md", "a\n");
    assert.equal(resultText(await ws.call("read", { path: "..notes.txt" })), "dots");
    assert.equal(resultText(await ws.call("read", { path: path.join(ws.root, "docs", "a.md") })), "a");
    assert.equal(resultText(await ws.call("read", { path: "./docs/../docs/a.md" })), "a");
    const root = await resolveWorkspacePath(ws.root, ".");
    assert.equal(root, ws.root, "the root itself resolves to the root");
  });
});

test("边界：空路径与只有 @ 的路径是一行错误", async () => {
  await withWorkspace(async (ws) => {
    for (const requested of ["", "@", "   "]) {
      const result = await ws.call("read", { path: requested });
      assert.equal(result.isError, true, JSON.stringify(requested));
      assert.match(resultText(result), /^Path is empty; give a file path inside the workspace /);
    }
  });
});

test("边界：isInside 把同前缀的兄弟目录算作外部", () => {
  const root = path.resolve("/work/ws");
  assert.equal(isInside(root, root), true);
  assert.equal(isInside(root, path.join(root, "a", "b")), true);
  assert.equal(isInside(root, path.resolve("/work/ws-other/file")), false);
  assert.equal(isInside(root, path.resolve("/work")), false);
  assert.equal(isInside(root, path.join(root, "..notes")), true);
});

test("边界：工作区根不存在时是一行错误", async () => {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "pi-tools-missing-")));
  try {
    const read = workspaceTool(path.join(base, "gone"), "read");
    await assert.rejects(read.execute({ path: "a.txt" }, {}), /^Error: The workspace .*gone does not exist; create it/);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});

test("边界：相对的 workspace 根按当前目录解析，拒绝说明里写出绝对路径", async () => {
  await withWorkspace(async (ws) => {
    const read = workspaceTool(path.relative(process.cwd(), ws.root), "read");
    await assert.rejects(read.execute({ path: "../secret.txt" }, {}), (error: Error) => {
      assert.ok(error.message.includes(`outside the workspace ${ws.root};`), error.message);
      return true;
    });
  });
});
