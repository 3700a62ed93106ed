import assert from "node:assert/strict";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { applyPatch } from "diff";
import fc from "fast-check";
import { type Replacement, replacementDiff } from "../src/tools/unified-diff.js";
import { abortedAfterLooks, numberedLines, resultText, withWorkspace } from "./workspace-fixture.js";

test("edit：firstChangedLine 指向最靠前的改动，与 edits 的顺序无关；diff 只含改动附近的行", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("notes.txt", numberedLines(100));
    const result = await ws.call("edit", {
      path: "notes.txt",
      edits: [
        { oldText: "line 90\n", newText: "line ninety\n" },
        { oldText: "line 40\n", newText: "line forty\n" },
      ],
    });
    const details = result.details as { diff: string; firstChangedLine: number };
    assert.equal(details.firstChangedLine, 40);
    assert.match(details.diff, /^@@ -37,7 \+37,7 @@$/m);
    assert.match(details.diff, /^@@ -87,7 \+87,7 @@$/m);
    assert.ok(!details.diff.includes("line 10\n"), "unchanged lines far away stay out of the diff");
    assert.equal(resultText(result), "Applied 2 edits to notes.txt.");
  });
});

test("edit：CRLF 文件里未改动的行逐字节不变；CRLF 的 oldText 也能匹配；diff 不带 \\r", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("win.ini", "[a]\r\nx=1\r\ny=2\r\n");
    const result = await ws.call("edit", {
      path: "win.ini",
      edits: [{ oldText: "x=1\r\ny=2", newText: "x=10\ny=20" }],
    });
    assert.equal(result.isError, false);
    assert.equal(await ws.contentOf("win.ini"), "[a]\r\nx=10\r\ny=20\r\n");
    assert.ok(!(result.details as { diff: string }).diff.includes("\r"));
  });
});

test("edit：LF 文件保持 LF，没有 BOM 的文件不加 BOM", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("unix.txt", "a\nb\n");
    await ws.call("edit", { path: "unix.txt", edits: [{ oldText: "a\r\nb", newText: "A\r\nB" }] });
    assert.equal(await ws.contentOf("unix.txt"), "A\nB\n");
  });
});

test("edit：不存在的文件、目录与空的 edits 是一行错误，不留临时文件", async () => {
  await withWorkspace(async (ws) => {
    await mkdir(path.join(ws.root, "src"));
    const expectations: [Record<string, unknown>, RegExp][] = [
      [
        { path: "missing.ts", edits: [{ oldText: "a", newText: "b" }] },
        /^File "missing.ts" does not exist in the workspace; edit changes existing files only/,
      ],
      [{ path: "src", edits: [{ oldText: "a", newText: "b" }] }, /^Path "src" is a directory/],
      [{ path: "src", edits: [] }, /^Invalid arguments for tool "edit"/],
      [{ path: "a.ts", oldText: "a", newText: "b" }, /^Invalid arguments for tool "edit"/],
    ];
    for (const [args, message] of expectations) {
      const result = await ws.call("edit", args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.equal(resultText(result).split("\n").length, 1);
      assert.match(resultText(result), message);
      // edit cannot know which tools are enabled (tiny-pi --tools edit has no write or bash): no error names another tool.
      assert.doesNotMatch(resultText(result), /\b(write|bash)\b/, "edit 的错误不提别的工具：它们可能没有启用");
    }
    assert.deepEqual(await readdir(ws.root), ["src"]);
  });
});

test("edit：10 MB 文件中改一行，其他内容不变", async () => {
  await withWorkspace(async (ws) => {
    const original = numberedLines(700_000);
    await ws.put("big.txt", original);
    const result = await ws.call("edit", {
      path: "big.txt",
      edits: [{ oldText: "line 350000\n", newText: "middle\n" }],
    });
    assert.equal(result.isError, false);
    assert.equal(await ws.contentOf("big.txt"), original.replace("line 350000\n", "middle\n"));
    assert.equal((result.details as { firstChangedLine: number }).firstChangedLine, 350_000);
  });
});

test("edit 的 diff 由替换直接构成，仍是能把原文变成新文的 unified diff（性质测试）", () => {
  // Short texts over a tiny alphabet: many shared lines, changes at the start, the end, in lines
  // without a final newline, replacements that touch or share a line.
  const text = fc
    .array(fc.constantFrom("a", "b", "\n", "\n", "xy\n"), { maxLength: 40 })
    .map((parts) => parts.join(""));
  const cuts = fc.array(fc.tuple(fc.nat(60), fc.nat(4), text), { maxLength: 6 });
  fc.assert(
    fc.property(text, cuts, (before, raw) => {
      const replacements: Replacement[] = [];
      let from = 0;
      for (const [gap, length, inserted] of raw) {
        const start = from + (gap % 8);
        const end = start + length + 1;
        if (end > before.length) break;
        replacements.push({ start, end, text: inserted });
        from = end;
      }
      let after = "";
      let at = 0;
      for (const { start, end, text: inserted } of replacements) {
        after += before.slice(at, start) + inserted;
        at = end;
      }
      after += before.slice(at);
      const { diff, firstChangedLine } = replacementDiff("f.txt", before, replacements, 1_000_000);
      assert.equal(applyPatch(before, diff), after);
      const unchanged = (text: string) => text.split("\n").slice(0, firstChangedLine - 1);
      assert.deepEqual(unchanged(after), unchanged(before), "lines above firstChangedLine are unchanged");
    }),
    { numRuns: 2000 },
  );
});

test("edit：不是合法 UTF-8 的文件（Latin-1、GBK）被一行错误拒绝，文件逐字节不变", async () => {
  await withWorkspace(async (ws) => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x3d, 0x31, 0x0a]); // "café\nx=1\n" in Latin-1
    const file = await ws.put("latin1.txt", latin1);
    const result = await ws.call("edit", { path: "latin1.txt", edits: [{ oldText: "x=1", newText: "x=2" }] });
    assert.equal(result.isError, true);
    assert.match(resultText(result), /^File "latin1\.txt" is not valid UTF-8, and edit would change its other bytes/);
    assert.doesNotMatch(resultText(result), /\bbash\b/, "edit 的错误不提 bash：它可能没有启用");
    assert.deepEqual(await readFile(file), latin1, "bytes unchanged");
  });
});

test("edit：换行混用的文件按 LF 匹配和计数，每一段用它自己的换行写回", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("mixed.txt", "header\r\nalpha\nbeta\n");
    const present = await ws.call("edit", { path: "mixed.txt", edits: [{ oldText: "alpha\nbeta", newText: "A\nB" }] });
    assert.equal(present.isError, false, "逐字节存在的 alpha\\nbeta 能被找到");
    assert.equal(await ws.contentOf("mixed.txt"), "header\r\nA\nB\n", "LF 的一段写回 LF，CRLF 的行不变");

    await ws.put("twice.txt", "k\r\nv\r\n--\nk\nv\n");
    const twice = await ws.call("edit", { path: "twice.txt", edits: [{ oldText: "k\nv\n", newText: "x\n" }] });
    assert.match(resultText(twice), /^edits\[0\]\.oldText occurs 2 times/, "按 LF 计数：CRLF 与 LF 的两份都算");

    await ws.put("crlf-part.txt", "a\r\nb\r\nc\nd\n");
    await ws.call("edit", { path: "crlf-part.txt", edits: [{ oldText: "b\nc", newText: "B1\nB2\nC" }] });
    assert.equal(await ws.contentOf("crlf-part.txt"), "a\r\nB1\r\nB2\r\nC\nd\n", "替换的一段用它第一个换行的写法");
  });
});

test("edit 与 read 对 BOM 一致：read 不显示 BOM，read 给出的第一行可以直接作为 oldText", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("bom.txt", "\uFEFFtitle\nbody\n");
    const first = resultText(await ws.call("read", { path: "bom.txt", limit: 1 })).split("\n")[0] ?? "";
    assert.equal(first, "title", "read 不显示 BOM");
    const result = await ws.call("edit", { path: "bom.txt", edits: [{ oldText: first, newText: "Title" }] });
    assert.equal(result.isError, false);
    const withBom = await ws.call("edit", { path: "bom.txt", edits: [{ oldText: "\uFEFFTitle", newText: "T" }] });
    assert.equal(withBom.isError, false, "带着 BOM 的 oldText 也能匹配");
    assert.equal(await ws.contentOf("bom.txt"), "\uFEFFT\nbody\n", "BOM 保留");
  });
});

test("edit：一行 5 MB 的文件改一处，details 里的 diff 不超过 50 KB，并说明被截断", async () => {
  await withWorkspace(async (ws) => {
    await ws.put("one-line.min.js", `${"x".repeat(5 * 1024 * 1024)}needle${"y".repeat(100)}\n`);
    const result = await ws.call("edit", { path: "one-line.min.js", edits: [{ oldText: "needle", newText: "pin" }] });
    assert.equal(result.isError, false);
    const details = result.details as { diff: string; diffBytes: number; firstChangedLine: number };
    assert.ok(Buffer.byteLength(details.diff) <= 51_200 + 200, `diff is ${Buffer.byteLength(details.diff)} bytes`);
    assert.match(details.diff, /\[diff cut at 51200 of \d+ bytes; read the file to see the rest\]\n$/);
    assert.ok(details.diffBytes > 10 * 1024 * 1024, "the full size is named");
    assert.equal(details.firstChangedLine, 1);
  });
});

test("edit：一次最多 1000 个 edits；1000 个 edits 的 1 MB 文件一次写入；取消在逐个定位时生效", async () => {
  await withWorkspace(async (ws) => {
    const original = numberedLines(100_000);
    await ws.put("big.txt", original);
    const edits = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ oldText: `line ${i * 97 + 1}\n`, newText: `LINE ${i}\n` }));
    const tooMany = await ws.call("edit", { path: "big.txt", edits: edits(1001) });
    assert.match(resultText(tooMany), /^Invalid arguments for tool "edit".*must NOT have more than 1000 items/);
    const many = await ws.call("edit", { path: "big.txt", edits: edits(1000) });
    assert.equal(many.isError, false, resultText(many));
    assert.equal((many.details as { diff: string }).diff.includes("+LINE 0"), true);

    const signal = abortedAfterLooks(10);
    await ws.put("big.txt", original);
    const aborted = await ws.call("edit", { path: "big.txt", edits: edits(1000) }, { signal });
    assert.equal(resultText(aborted), "Edit of big.txt aborted; the file was not changed.");
    assert.equal(await ws.contentOf("big.txt"), original);
  });
});
