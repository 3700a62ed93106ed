import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { numberedLines, peakMemoryMiB, resultText, withWorkspace } from "./workspace-fixture.js";

/** Generous: reading the file whole would need a gigabyte. The bench holds the 64 MiB goal. */
const READ_MEMORY_CAP_MIB = 160;

test("read 内存有界：1 GB 稀疏文件末尾的 10 行，子进程峰值 RSS 远低于文件大小", async () => {
  await withWorkspace(async (ws) => {
    const file = path.join(ws.root, "huge.log");
    // 1000 text lines, a hole of zeros (one long line), then 10 lines at the 1 GiB mark: made with
    // two positioned writes, so nothing close to a gigabyte is written to disk.
    const { peak, baseline, output } = await peakMemoryMiB(`
      const fs = await import("node:fs");
      const file = ${JSON.stringify(file)};
      const head = ${JSON.stringify(numberedLines(1000))};
      const tail = "\\n" + ${JSON.stringify(numberedLines(10))};
      const fd = fs.openSync(file, "w");
      fs.writeSync(fd, head, 0);
      fs.writeSync(fd, tail, 2 ** 30 - Buffer.byteLength(tail));
      fs.closeSync(fd);
      const [read] = createWorkspaceTools(${JSON.stringify(ws.root)});
      const result = await read.execute({ path: "huge.log", offset: 1002 }, {});
      return result.content[0].text;`);
    assert.equal(output, numberedLines(10).trimEnd(), "the last 10 lines, counted past the hole");
    assert.ok(
      peak - baseline < READ_MEMORY_CAP_MIB,
      `peak ${peak.toFixed(1)} MiB over a ${baseline.toFixed(1)} MiB baseline`,
    );
  });
});

test("read：limit 大于 2000 时仍按 2000 行截断；options 里的 maxLines 与 maxBytes 生效", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("long.txt", numberedLines(2100));
    const capped = await ws.call("read", { path: "long.txt", limit: 5000 });
    assert.match(resultText(capped), /\[Showing lines 1-2000 of 2100\. Use offset=2001 to continue\.\]$/);
  });
  await withWorkspace(
    async (ws) => {
      await ws.put("notes.txt", numberedLines(10));
      const byLines = await ws.call("read", { path: "notes.txt", offset: 4 });
      assert.equal(
        resultText(byLines),
        "line 4\nline 5\nline 6\n\n[Showing lines 4-6 of 10. Use offset=7 to continue.]",
      );
      await ws.put("wide.txt", "0123456789\n".repeat(3));
      const byBytes = await ws.call("read", { path: "wide.txt" });
      assert.equal(
        resultText(byBytes),
        "0123456789\n0123456789\n\n[Showing lines 1-2 of 3 (25 B limit). Use offset=3 to continue.]",
      );
    },
    { maxLines: 3, maxBytes: 25 },
  );
});

test("read：空文件、最后一行没有换行、中文多字节内容", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("empty.txt", "");
    assert.equal(resultText(await ws.call("read", { path: "empty.txt" })), "(empty file)");
    await ws.put("no-newline.txt", "a\nb");
    assert.equal(resultText(await ws.call("read", { path: "no-newline.txt", offset: 2 })), "b");
    await ws.put("zh.md", "第一行\n第二行\n");
    assert.equal(resultText(await ws.call("read", { path: "zh.md", offset: 2 })), "第二行");
  });
});

test("read：不存在的文件、目录与 NUL 字节内容是一行错误", async () => {
  await withWorkspace(async (ws) => {
    await mkdir(path.join(ws.root, "src"));
    await ws.put("data.bin", Buffer.from("text then \0 zero"));
    const expectations: [string, RegExp][] = [
      ["missing.txt", /^File "missing.txt" does not exist in the workspace/],
      ["src", /^Path "src" is a directory/],
      ["data.bin", /^File "data.bin" is binary \(NUL bytes in its first 8 KB\)/],
    ];
    for (const [requested, message] of expectations) {
      const result = await ws.call("read", { path: requested });
      assert.equal(result.isError, true, requested);
      assert.equal(resultText(result).split("\n").length, 1, requested);
      assert.match(resultText(result), message);
    }
  });
});

test("read：offset 与 limit 必须是从 1 开始的整数（第 06 章的参数校验）", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("a.txt", "a\n");
    for (const args of [{ path: "a.txt", offset: 0 }, { path: "a.txt", limit: 1.5 }, { file: "a.txt" }]) {
      const result = await ws.call("read", args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(resultText(result), /^Invalid arguments for tool "read"/);
    }
  });
});
