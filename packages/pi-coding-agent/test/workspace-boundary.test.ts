import assert from "node:assert/strict";
import { mkdtemp, readdir, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { isInside, resolveWorkspacePath } from "../src/tools/workspace-path.js";
import { resultText, type Workspace, withWorkspace, workspaceTool } from "./workspace-fixture.js";

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

const FILE_TOOLS = [
  ["read", {}],
  ["write", { content: "planted" }],
  ["edit", { edits: [{ oldText: "a", newText: "b" }] }],
] as const;

/** Every file tool refuses `requested` with exactly `expected`, and the workspace listing stays as it was. */
async function refusedByEveryTool(ws: Workspace, requested: string, expected: string): Promise<void> {
  const before = await readdir(ws.root, { recursive: true });
  for (const [name, args] of FILE_TOOLS) {
    const result = await ws.call(name, { path: requested, ...args });
    assert.equal(result.isError, true, `${name} ${JSON.stringify(requested)}: an error result`);
    assert.equal(resultText(result), expected, `${name} ${JSON.stringify(requested)}: one line naming the problem`);
  }
  assert.deepEqual(await readdir(ws.root, { recursive: true }), before, "nothing was written in the workspace");
}

test("边界：含 NUL 字节的路径在任何 fs 调用之前被三个工具拒绝，什么都不写", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("notes.txt", "a\n");
    for (const requested of ["notes.txt\0", "\0", "docs/\0/x.txt", `${ws.root}/notes\0.txt`, "@a\0"]) {
      const shown = requested.replaceAll("\0", "\\0");
      const expected = `Path "${shown}" contains a NUL byte (\\0), which no file name can hold; give the path without it.`;
      await refusedByEveryTool(ws, requested, expected);
    }
  });
  // A workspace that does not exist: the NUL refusal comes first, so no fs call was made.
  const read = workspaceTool(path.join(os.tmpdir(), "pi-no-such-workspace"), "read");
  await assert.rejects(read.execute({ path: "a\0" }, {}), /^Error: Path "a\\0" contains a NUL byte/);
});

test("边界：超过文件系统上限的名字（ENAMETOOLONG）与 symlink 环（ELOOP）是一行说明，什么都不写", async () => {
  await withWorkspace(async (ws) => {
    const tooLong = (requested: string, bytes: number) =>
      `Path "${requested}" is too long for the file system (its longest name is ${bytes} bytes; most file systems allow 255); use shorter names.`;
    const long = "n".repeat(300);
    await ws.put("docs/a.txt", "a\n");
    // Folders still to be made are judged too: realpath() stops at the first missing name.
    for (const requested of [
      long,
      `docs/${long}`,
      `docs/${long}/deeper/file.txt`,
      `@${long}`,
      `fresh/deeper/${long}`,
    ]) {
      await refusedByEveryTool(ws, requested, tooLong(requested, 300));
    }
    // Counted in bytes, as the file system counts: 100 three-byte characters are 300 bytes.
    await refusedByEveryTool(ws, "名".repeat(100), tooLong("名".repeat(100), 300));

    await symlink("self", path.join(ws.root, "self"));
    await symlink("ping", path.join(ws.root, "pong"));
    await symlink("pong", path.join(ws.root, "ping"));
    for (const requested of ["self", "self/x/y.txt", "ping", "docs/../pong/new.txt"]) {
      const expected = `Path "${requested}" goes through a symlink loop (links that lead back to themselves); remove the loop or point the link at a file inside the workspace ${ws.root}.`;
      await refusedByEveryTool(ws, requested, expected);
    }
    assert.deepEqual(await readdir(ws.outside), ["secret.txt"], "nothing appeared outside the workspace");
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
