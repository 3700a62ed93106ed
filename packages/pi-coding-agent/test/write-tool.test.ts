import assert from "node:assert/strict";
import { chmod, chown, mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { resultText, withWorkspace, writeAsUser } from "./workspace-fixture.js";

test("write 原子性：覆盖 8 MB 文件期间，另一个读者看到的大小只有旧的或新的", async () => {
  await withWorkspace(async (ws) => {
    const file = await ws.put("data.txt", "old\n");
    const content = "new content line\n".repeat(512 * 1024); // 8.5 MB: written in many chunks
    const sizes = new Set<number>();
    let writing = true;
    const watcher = (async () => {
      while (writing) {
        sizes.add((await stat(file)).size);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const result = await ws.call("write", { path: "data.txt", content });
    writing = false;
    await watcher;
    assert.equal(result.isError, false);
    assert.deepEqual(
      [...sizes].filter((size) => size !== 4 && size !== content.length),
      [],
      "no partial size observed",
    );
    assert.equal((await stat(file)).size, content.length);
  });
});

test("write：目标是目录时是一行错误，不留临时文件", async () => {
  await withWorkspace(async (ws) => {
    await mkdir(path.join(ws.root, "docs"));
    const result = await ws.call("write", { path: "docs", content: "x" });
    assert.equal(result.isError, true);
    assert.match(resultText(result), /^Path "docs" is a directory; write to a file path/);
    assert.deepEqual(await readdir(ws.root), ["docs"]);
    assert.deepEqual(await readdir(path.join(ws.root, "docs")), []);
  });
});

test("write：覆盖时保留文件权限；同一批两次 write 按调用顺序落盘", { skip: process.platform === "win32" }, async () => {
  await withWorkspace(async (ws) => {
    const script = await ws.put("run.sh", "#!/bin/sh\necho old\n");
    await chmod(script, 0o755);
    await ws.call("write", { path: "run.sh", content: "#!/bin/sh\necho new\n" });
    assert.equal((await stat(script)).mode & 0o777, 0o755);

    const results = await Promise.all([
      ws.call("write", { path: "log.txt", content: "first\n" }),
      ws.call("write", { path: "log.txt", content: "second\n" }),
    ]);
    assert.deepEqual(
      results.map((result) => result.isError),
      [false, false],
    );
    assert.equal(await ws.contentOf("log.txt"), "second\n");
  });
});

test("write：用户自己不能写的只读（0444）文件被拒绝，文件不变；root 写别人的文件时保留属主与属组", {
  skip: process.platform === "win32" ? "POSIX permissions" : false,
}, async () => {
  await withWorkspace(async (ws) => {
    const locked = await ws.put("locked.txt", "keep\n");
    await chmod(locked, 0o444);
    assert.equal(
      await writeAsUser(ws.root, "locked.txt", "replaced\n"),
      'File "locked.txt" is read-only for this user; make it writable first (chmod u+w) if it should be replaced.',
    );
    assert.equal(await ws.contentOf("locked.txt"), "keep\n");
    assert.deepEqual((await readdir(ws.root)).sort(), ["locked.txt"], "no temp file left");

    if (process.getuid?.() !== 0) return;
    const owned = await ws.put("owned.txt", "old\n");
    await chown(owned, 1234, 5678);
    await chmod(owned, 0o640);
    await ws.call("write", { path: "owned.txt", content: "new\n" });
    const after = await stat(owned);
    assert.deepEqual([after.uid, after.gid, after.mode & 0o777], [1234, 5678, 0o640]);
  });
});

test("write 与 edit：文件名接近 255 字节的上限（250 字节、83 个“名”）也能写与改，临时文件名截短后仍放得下", async () => {
  await withWorkspace(async (ws) => {
    for (const name of ["a".repeat(250), "名".repeat(83)]) {
      const written = await ws.call("write", { path: name, content: "one\n" });
      assert.equal(written.isError, false, resultText(written));
      const edited = await ws.call("edit", { path: name, edits: [{ oldText: "one", newText: "two" }] });
      assert.equal(edited.isError, false, resultText(edited));
      assert.equal(await ws.contentOf(name), "two\n");
    }
    assert.deepEqual(
      (await readdir(ws.root)).filter((entry) => entry.endsWith(".tmp")),
      [],
      "没有留下临时文件",
    );
  });
});
