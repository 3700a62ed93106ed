import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { HANG_GUARD_MS } from "./hang-guard.js";
import {
  abortedAfterLooks,
  numberedLines,
  peakMemoryMiB,
  resultText,
  spawnNodeScript,
  withWorkspace,
} from "./workspace-fixture.js";

const posixOnly = { skip: process.platform === "win32" ? "POSIX shell, FIFOs" : false };

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
      assert.doesNotMatch(
        resultText(result),
        /\bbash\b/,
        `${requested}：read 不知道 bash 是否启用，它的错误不让模型去用 bash`,
      );
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

test("read：超长首行的提示命令原样交给 bash 运行也安全，文件名里的 $(…) 不被执行", posixOnly, async () => {
  await withWorkspace(async (ws) => {
    const name = "$(touch PWNED).min.js";
    await ws.put(name, `${"a".repeat(60_000)}\n`);
    const hint = /Use bash: (.+)\]$/.exec(resultText(await ws.call("read", { path: name })))?.[1] ?? "";
    const shown = await ws.call("bash", { command: hint });
    assert.equal(resultText(shown), "a".repeat(51_200), "提示的命令读出这一行的开头");
    assert.equal(existsSync(path.join(ws.root, "PWNED")), false, "文件名里的命令没有被执行");
  });
});

test("read：页满之后只数行，不再逐行处理；8 MB 的空行 limit 1 仍给出总行数；循环里响应取消", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("blank.txt", "\n".repeat(8 * 1024 * 1024));
    const one = await ws.call("read", { path: "blank.txt", limit: 1 });
    assert.equal(resultText(one), "\n\n[8388607 more lines in file. Use offset=2 to continue.]");
    // A signal that turns aborted on its third look: the loop looks at it once per chunk. (8 MB of
    // long lines: the same chunks as the blank file, a thousand times fewer lines to step through.)
    await ws.put("long.txt", `${"x".repeat(1023)}\n`.repeat(8 * 1024));
    const signal = abortedAfterLooks(2);
    const aborted = await ws.call("read", { path: "long.txt", offset: 8_000 }, { signal });
    assert.equal(resultText(aborted), "Read of long.txt aborted.");
  });
});

test("read：正在被追加的文件也会返回，读到打开时的大小为止", { ...posixOnly, timeout: HANG_GUARD_MS }, async () => {
  await withWorkspace(async (ws) => {
    const file = await ws.put("growing.log", numberedLines(1000));
    const writer = spawnNodeScript(`
      import fs from "node:fs";
      const fd = fs.openSync(${JSON.stringify(file)}, "a");
      console.log("appending");
      for (;;) fs.writeSync(fd, "more\\n".repeat(10000));`);
    try {
      await writer.firstLine;
      const result = await ws.call("read", { path: "growing.log", limit: 2 });
      assert.match(resultText(result), /^line 1\nline 2\n\n\[\d+ more lines in file\. Use offset=3 to continue\.\]$/);
    } finally {
      writer.process.kill("SIGKILL");
      await writer.exited;
    }
  });
});

test("read 与 edit：命名管道（FIFO）在打开之前就被拒绝，一行错误，不会挂起", {
  ...posixOnly,
  timeout: HANG_GUARD_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    execFileSync("mkfifo", [path.join(ws.root, "pipe")]);
    for (const [name, args] of [
      ["read", { path: "pipe" }],
      ["edit", { path: "pipe", edits: [{ oldText: "a", newText: "b" }] }],
      ["write", { path: "pipe", content: "x" }],
    ] as const) {
      const result = await ws.call(name, args);
      assert.equal(result.isError, true, name);
      assert.equal(
        resultText(result),
        'Path "pipe" is a named pipe, not a regular file; the tools read and write only regular files.',
      );
    }
  });
});

test("read：数字写成字符串（小模型常这样）按第 06 章的校验拒绝，错误点名字段，调用的参数不被改写", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("a.txt", numberedLines(60));
    const args = { path: "a.txt", offset: "51" };
    const result = await ws.call("read", args);
    assert.equal(result.isError, true);
    assert.match(resultText(result), /arguments\/offset must be integer/);
    assert.deepEqual(args, { path: "a.txt", offset: "51" }, "校验不转换类型：transcript 里的调用保持模型发来的样子");
  });
});
