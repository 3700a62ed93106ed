import assert from "node:assert/strict";
import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { applyPatch } from "diff";
import fc from "fast-check";
import { type Replacement, replacementDiff } from "../src/tools/unified-diff.js";
import { numberedLines, resultText, withWorkspace } from "./workspace-fixture.js";

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
        /^File "missing.ts" does not exist in the workspace; create it with write/,
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
