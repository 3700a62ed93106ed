import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { existsSync } from "node:fs";
import { chmod, link, readdir, readFile, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { TextContent } from "@pi/core";
import { resolveWorkspacePath } from "../src/tools/workspace-path.js";
import {
  abortedAfterLooks,
  isRunning,
  numberedLines,
  pidFileProcessReaped,
  resultText,
  SECRET,
  withWorkspace,
  writeAsUser,
} from "./workspace-fixture.js";

/**
 * Each test ends by itself when it hangs (a promise that never settles) and names itself. These
 * tests start real processes on real files: 10 s, then 30 s, were met on a loaded machine (tiny-pi
 * checking a practice tree while the course suite's builds ran beside it, load 30 on 2 cores), so a
 * hang is named after 120 s. verify stops a focused run sooner on its own.
 */
const TEST_TIMEOUT_MS = 120_000;

// Chapter 08: the workspace tools on real files in a real temp folder, each call made through
// chapter 06's executeToolCall, so a thrown Error comes back as a paired isError result.

// ---------------------------------------------------------------------------
// Lab 8.1 · 守住工作区边界
// ---------------------------------------------------------------------------

test("工作区边界：..、工作区外的绝对路径与 ~ 开头的路径被拒绝，一行说明点出 workspace；含 NUL 的路径与超长的名字是一行说明；开头的 @ 被去掉；经过 symlink 到达的工作区认它的两个名字", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const escapes = ["../outside/secret.txt", path.join(ws.outside, "secret.txt"), "notes/../../outside/secret.txt"];
    for (const requested of escapes) {
      const read = await ws.call("read", { path: requested });
      assert.equal(read.isError, true, `${requested}：越界路径是错误结果`);
      assert.equal(resultText(read).split("\n").length, 1, "拒绝只有一行");
      assert.ok(resultText(read).includes(ws.root), "拒绝的说明点出 workspace");
      assert.ok(!resultText(read).includes(SECRET.trim()), "外部文件的内容没有被读出");
    }
    const write = await ws.call("write", { path: "../outside/planted.txt", content: "x" });
    assert.equal(write.isError, true, "write 也守同一条边界");
    await assert.rejects(stat(path.join(ws.outside, "planted.txt")), "越界的 write 没有创建任何文件");

    const home = await ws.call("write", { path: "~/notes.txt", content: "x" });
    assert.equal(home.isError, true, "~ 开头的路径被拒绝：工具不展开 ~，也不创建字面的 ~ 目录");
    assert.match(
      resultText(home),
      /^Path "~\/notes\.txt" starts with ~, which the tools do not expand/,
      "拒绝说明 ~ 不展开",
    );
    assert.equal(existsSync(path.join(ws.root, "~")), false, "工作区里没有出现名为 ~ 的目录");

    const nul = await ws.call("write", { path: "notes\0.txt", content: "x" });
    assert.match(
      resultText(nul),
      /^Path "notes\\0\.txt" contains a NUL byte \(\\0\), which no file name can hold; give the path without it\.$/,
      "含 NUL 字节的路径在任何 fs 调用之前拒绝：一行说明，而不是 Node 的 ERR_INVALID_ARG_VALUE",
    );
    assert.equal(await resolveWorkspacePath(ws.root, "@README.md"), path.join(ws.root, "README.md"), "开头的 @ 被去掉");

    // The workspace given through a link, as /tmp is on macOS: bash prints the real path, the tools take both.
    const linked = path.join(ws.outside, "linked-workspace");
    await symlink(ws.root, linked);
    const notes = await ws.put("notes.txt", "inside\n");
    const resolved = (requested: string) =>
      resolveWorkspacePath(linked, requested).catch((error: Error) => error.message);
    assert.equal(
      await resolved("notes.txt"),
      notes,
      "经过 symlink 给出的工作区照常可用：真实路径要和工作区的真实路径比较，而不是和 path.resolve(root)",
    );
    assert.equal(
      await resolved(notes),
      notes,
      "工作区真实路径下的绝对路径（bash 的 $PWD 给出的那种）也在工作区里：工作区认给出的路径和它的真实路径两个名字",
    );
    await assert.rejects(
      resolveWorkspacePath(linked, "../secret.txt"),
      /outside the workspace/,
      "经过 symlink 的工作区仍拒绝越界",
    );
    const tooLong = await ws.call("write", { path: `docs/${"x".repeat(300)}.txt`, content: "x" });
    assert.match(
      resultText(tooLong),
      /^Path "docs\/x+\.txt" is too long for the file system \(its longest name is 304 bytes; most file systems allow 255\); use shorter names\.$/,
      "ENAMETOOLONG（名字超过文件系统的上限）换成一行说明，写出最长的名字有多少字节；还不存在的名字也要问过文件系统（nameLengthsAllowed()）",
    );
    assert.equal(existsSync(path.join(ws.root, "docs")), false, "超长的名字被拒绝时，write 没有创建它的父目录");
  });
});

test("工作区边界 · symlink：路径上任何一处通向工作区外的链接与 symlink 环都被拒绝，write 不会穿过它", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    await symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "secret-link.txt"));
    await symlink(ws.outside, path.join(ws.root, "shared"));
    for (const requested of ["secret-link.txt", "shared/secret.txt"]) {
      const read = await ws.call("read", { path: requested });
      assert.equal(read.isError, true, `${requested}：经过外链的路径被拒绝`);
      assert.ok(resultText(read).includes(ws.root), "拒绝的说明点出 workspace");
      assert.ok(!resultText(read).includes(SECRET.trim()), "外部文件的内容没有被读出");
    }
    const write = await ws.call("write", { path: "shared/deep/planted.txt", content: "x" });
    assert.equal(write.isError, true, "写入经过外链目录的路径被拒绝");
    await symlink(path.join(ws.outside, "created-by-link.txt"), path.join(ws.root, "dangling.txt"));
    const dangling = await ws.call("write", { path: "dangling.txt", content: "x" });
    assert.match(
      resultText(dangling),
      /goes through a symlink whose target does not exist/,
      "指向不存在目标的链接不被跟随：它的去向无法检查，realPathOf() 用一行错误拒绝它",
    );
    await symlink("loop-b", path.join(ws.root, "loop-a"));
    await symlink("loop-a", path.join(ws.root, "loop-b"));
    const loop = await ws.call("write", { path: "loop-a/planted.txt", content: "x" });
    assert.equal(
      resultText(loop),
      `Path "loop-a/planted.txt" goes through a symlink loop (links that lead back to themselves); remove the loop or point the link at a file inside the workspace ${ws.root}.`,
      "ELOOP（symlink 环）换成一行说明，点出 workspace，而不是 Node 的原始错误",
    );
    assert.deepEqual(await readdir(ws.outside), ["secret.txt"], "工作区外没有出现新文件或目录");
    const inside = await ws.put("docs/guide.md", "inside\n");
    await symlink(inside, path.join(ws.root, "guide-link.md"));
    assert.equal(
      await resolveWorkspacePath(ws.root, "guide-link.md"),
      inside,
      "指向工作区内的链接照常可用，解析为真实路径",
    );
  });
});

test("工作区边界 · 使用时：检查时还是普通文件、之后被换成外链的路径，在使用时被拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const notes = await ws.put("notes.txt", "first version\n");
    assert.equal(await resolveWorkspacePath(ws.root, "notes.txt"), notes, "第一次解析时是工作区里的普通文件");
    await rm(path.join(ws.root, "notes.txt"));
    await symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "notes.txt"));
    const read = await ws.call("read", { path: "notes.txt" });
    assert.equal(read.isError, true, "路径在每次使用时重新解析");
    assert.ok(!resultText(read).includes(SECRET.trim()), "外部文件的内容没有被读出");
    const edit = await ws.call("edit", { path: "notes.txt", edits: [{ oldText: "outside", newText: "inside" }] });
    assert.equal(edit.isError, true, "edit 同样在使用时解析");
    assert.equal(await readFile(path.join(ws.outside, "secret.txt"), "utf8"), SECRET, "外部文件没有被改动");
  });
});

// ---------------------------------------------------------------------------
// Lab 8.2 · 分页读取文本
// ---------------------------------------------------------------------------

test("分页读取：offset 从 1 开始、limit 按行计；limit 提前停下时说明剩余行数和下一个 offset；取消在循环里生效", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    await ws.put("notes.txt", numberedLines(10));
    const whole = await ws.call("read", { path: "notes.txt" });
    assert.equal(resultText(whole), numberedLines(10).trimEnd(), "没有截断时原样返回全部行");
    assert.equal(whole.details, undefined, "没有截断时 details 不带截断信息");
    const page = await ws.call("read", { path: "notes.txt", offset: 3, limit: 2 });
    assert.equal(
      resultText(page),
      "line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]",
      "offset 从 1 开始，limit 数行，提示给出下一个 offset",
    );
    const aborted = await ws.call("read", { path: "notes.txt" }, { signal: abortedAfterLooks(0) });
    assert.equal(
      resultText(aborted),
      "Read of notes.txt aborted.",
      "read 在循环里响应取消：bounds 带上 signal，每读一块之前看一次",
    );
    await ws.put("bom.txt", "\uFEFFfirst\nsecond\n");
    assert.equal(
      resultText(await ws.call("read", { path: "bom.txt" })),
      "first\nsecond",
      "第一行的 BOM 不显示：offset 为 1 时去掉它，read 给出的第一行可以直接作为 edit 的 oldText",
    );
    const beyond = await ws.call("read", { path: "notes.txt", offset: 11 });
    assert.equal(beyond.isError, true, "offset 超出文件是错误结果");
    assert.match(resultText(beyond), /Offset 11 is beyond end of file \(10 lines total\)/, "错误说明总行数");
  });
});

test("分页读取：超过 2000 行或 50 KB 时停在整行处，notice 给出 Use offset=N，details 说明截断", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    await ws.put("long.txt", numberedLines(2500));
    const byLines = await ws.call("read", { path: "long.txt" });
    const shown = resultText(byLines).split("\n\n")[0]?.split("\n") ?? [];
    assert.equal(shown.length, 2000, "最多 2000 行");
    assert.equal(shown.at(-1), "line 2000", "截断停在整行处");
    assert.ok(
      resultText(byLines).endsWith("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"),
      "notice 给出下一个 offset",
    );
    assert.deepEqual(
      byLines.details,
      { truncation: { truncatedBy: "lines", totalLines: 2500, outputLines: 2000, firstLine: 1, lastLine: 2000 } },
      "details 说明按行截断",
    );

    const wide = `${"x".repeat(99)}\n`.repeat(1000); // 100 bytes a line: 512 whole lines fit in 51,200 bytes
    await ws.put("wide.txt", wide);
    const byBytes = await ws.call("read", { path: "wide.txt" });
    const [body = "", notice] = resultText(byBytes).split("\n\n");
    assert.ok(Buffer.byteLength(body) <= 51_200, "正文不超过 50 KB");
    assert.ok(
      body.split("\n").every((line) => line.length === 99),
      "不留半行",
    );
    assert.equal(
      notice,
      "[Showing lines 1-512 of 1000 (50 KB limit). Use offset=513 to continue.]",
      "字节截断的 notice",
    );
    assert.equal(
      (byBytes.details as { truncation: { truncatedBy: string } }).truncation.truncatedBy,
      "bytes",
      "details 说明按字节截断",
    );
  });
});

test("分页读取：首行超过字节上限时报告而不截断；二进制文件按检测到的类型拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    await ws.put("minified.js", `${"a".repeat(60_000)}\nshort\n`);
    const huge = await ws.call("read", { path: "minified.js" });
    assert.equal(huge.isError, false, "超长首行不是错误");
    assert.ok(!resultText(huge).includes("aaaa"), "超长的行不被截成半行返回");
    assert.match(resultText(huge), /Line 1 is 58\.6 KB, over the 50 KB limit/, "说明这一行有多长");
    assert.match(
      resultText(huge),
      /sed -n '1p' 'minified\.js' \| head -c 51200/,
      "给出读取这一行的办法，路径放在单引号里（文件名里的 $(…) 不会被 shell 执行）",
    );

    await ws.put("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const binary = await ws.call("read", { path: "logo.png" });
    assert.equal(binary.isError, true, "二进制文件被拒绝");
    assert.match(resultText(binary), /PNG image/, "说明检测到的类型");
  });
});

// ---------------------------------------------------------------------------
// Lab 8.3 · 原子写入文件
// ---------------------------------------------------------------------------

test("原子写入：创建父目录，报告真实的 UTF-8 字节数", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withWorkspace(async (ws) => {
    const content = "项目：tiny-pi 🚀\n";
    const result = await ws.call("write", { path: "docs/zh/intro.md", content });
    assert.equal(result.isError, false, "写入成功");
    assert.equal(await ws.contentOf("docs/zh/intro.md"), content, "父目录被创建，内容完整");
    assert.equal(Buffer.byteLength(content), 22, "这段文字是 22 个 UTF-8 字节（UTF-16 只有 14 个单元）");
    assert.equal(resultText(result), "Wrote 22 bytes to docs/zh/intro.md.", "报告 UTF-8 字节数");
  });
});

test("原子写入：先写临时文件再 rename，旧文件的读者仍看到完整旧内容，目录里不留临时文件；保留权限位，只读文件被拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const file = await ws.put("config.json", '{"version": 1}\n');
    const reader = path.join(ws.root, "reader-view.json");
    await link(file, reader); // a reader holding the old file sees it whole, never half rewritten
    const result = await ws.call("write", { path: "config.json", content: '{"version": 2}\n' });
    assert.equal(result.isError, false, "覆盖成功");
    assert.equal(await ws.contentOf("config.json"), '{"version": 2}\n', "新内容完整");
    assert.equal(await readFile(reader, "utf8"), '{"version": 1}\n', "旧文件没有被原地改写：写入是临时文件 + rename");
    assert.deepEqual((await readdir(ws.root)).sort(), ["config.json", "reader-view.json"], "不留临时文件");

    if (process.platform !== "win32") {
      const script = await ws.put("run.sh", "#!/bin/sh\necho old\n");
      await chmod(script, 0o755);
      await ws.call("write", { path: "run.sh", content: "#!/bin/sh\necho new\n" });
      assert.equal(
        (await stat(script)).mode & 0o777,
        0o755,
        "覆盖时保留原文件的权限位（keepOwnerAndMode）：脚本仍可执行",
      );
      const locked = await ws.put("locked.txt", "keep\n");
      await chmod(locked, 0o444);
      assert.match(
        await writeAsUser(ws.root, "locked.txt", "replaced\n"),
        /^File "locked\.txt" is read-only for this user/,
        "用户自己不能写的只读文件被拒绝（checkReplaceable）：rename 只需要目录的权限，不检查就会悄悄替换它",
      );
      assert.equal(await ws.contentOf("locked.txt"), "keep\n", "只读文件保持原样");
    }
  });
});

// ---------------------------------------------------------------------------
// Lab 8.4 · 按原文精确编辑
// ---------------------------------------------------------------------------

test("精确编辑：每个 oldText 都对照原文匹配，一次写入，返回 unified diff 与 firstChangedLine", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    await ws.put("app.ts", 'const name = "pi";\nconst port = 80;\nexport { name, port };\n');
    const result = await ws.call("edit", {
      path: "app.ts",
      edits: [
        // edits[0]'s newText holds edits[1]'s oldText: applied one after another, edits[1] would match twice.
        { oldText: "const port = 80;", newText: 'const port = 8080; // was next to const name = "pi";' },
        { oldText: 'const name = "pi";', newText: 'const name = "tiny-pi";' },
      ],
    });
    assert.equal(
      result.isError,
      false,
      `两处编辑都成功：每个 oldText 对照原文匹配，前一个 edit 的 newText 不影响后一个（一个接一个应用时 edits[1] 会匹配两次）：${resultText(result)}`,
    );
    assert.equal(
      await ws.contentOf("app.ts"),
      'const name = "tiny-pi";\nconst port = 8080; // was next to const name = "pi";\nexport { name, port };\n',
      "第二个 oldText 对照原文匹配，不受第一个 newText 影响",
    );
    const details = result.details as { diff: string; firstChangedLine: number };
    assert.equal(details.firstChangedLine, 1, "firstChangedLine 是第一处改动的行号");
    assert.match(details.diff, /^--- app\.ts$/m, "diff 是 unified 格式");
    assert.match(details.diff, /^-const port = 80;$/m, "diff 含删除的行");
    assert.match(details.diff, /^\+const name = "tiny-pi";$/m, "diff 含新增的行");
  });
});

test("精确编辑：零次匹配、多次匹配、重叠、空 oldText 与结果不变都是点名 edits[i] 的一行错误，文件不变", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const original = "alpha\nbeta\nbeta\ngamma\n";
    await ws.put("list.txt", original);
    const cases: [string, { oldText: string; newText: string }[], RegExp][] = [
      [
        "零次匹配（oldText 必须逐字出现在原文里）",
        [
          { oldText: "alpha", newText: "A" },
          { oldText: "delta", newText: "D" },
        ],
        /^edits\[1\]\.oldText was not found/,
      ],
      [
        "多次匹配（oldText 必须恰好出现一次）",
        [{ oldText: "beta", newText: "B" }],
        /^edits\[0\]\.oldText occurs 2 times/,
      ],
      [
        "重叠（每个 edit 先对照原文定位，排序后相邻两段重叠就拒绝）",
        [
          { oldText: "alpha\nbeta", newText: "x" },
          { oldText: "a\nbeta\nbeta", newText: "y" },
        ],
        /^edits\[0\] and edits\[1\] overlap/,
      ],
      [
        "空 oldText（空的 oldText 处处匹配，必须拒绝）",
        [{ oldText: "", newText: "x" }],
        /^edits\[0\]\.oldText is empty/,
      ],
      [
        "结果不变（newText 与 oldText 相同时文件不会变）",
        [{ oldText: "gamma", newText: "gamma" }],
        /^edits\[0\] has newText identical to oldText/,
      ],
    ];
    for (const [name, edits, message] of cases) {
      const result = await ws.call("edit", { path: "list.txt", edits });
      assert.equal(result.isError, true, `${name}：是错误结果`);
      assert.equal(resultText(result).split("\n").length, 1, `${name}：错误只有一行`);
      assert.match(resultText(result), message, `${name}：点名 edits[i]`);
      assert.equal(await ws.contentOf("list.txt"), original, `${name}：文件保持原样`);
    }
  });
});

test("精确编辑：保留 UTF-8 BOM 与 CRLF；LF 写的 oldText 也能匹配 CRLF 文件，换行混用时每段保留自己的换行；同一批两次 edit 都落盘", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    await ws.put("win.txt", "\uFEFFfirst\r\nsecond\r\nthird\r\n");
    const crlf = await ws.call("edit", { path: "win.txt", edits: [{ oldText: "first\nsecond", newText: "one\ntwo" }] });
    assert.equal(crlf.isError, false, "LF 的 oldText 匹配 CRLF 文件");
    assert.equal(await ws.contentOf("win.txt"), "\uFEFFone\r\ntwo\r\nthird\r\n", "BOM 与 CRLF 都被保留");
    const crlfOld = await ws.call("edit", { path: "win.txt", edits: [{ oldText: "two\r\nthird", newText: "2\r\n3" }] });
    assert.equal(
      crlfOld.isError,
      false,
      `CRLF 写的 oldText 也能匹配：locate() 先把 oldText 的换行写成 LF，再在 LF 的原文里找：${resultText(crlfOld)}`,
    );
    assert.equal(await ws.contentOf("win.txt"), "\uFEFFone\r\n2\r\n3\r\n", "CRLF 的 newText 照文件自己的换行写回");
    await ws.put("mixed.txt", "header\r\nalpha\nbeta\n");
    const mixed = await ws.call("edit", { path: "mixed.txt", edits: [{ oldText: "alpha\nbeta", newText: "A\nB" }] });
    assert.equal(mixed.isError, false, `换行混用的文件按 LF 读作一种换行来匹配：${resultText(mixed)}`);
    assert.equal(
      await ws.contentOf("mixed.txt"),
      "header\r\nA\nB\n",
      "每一段用它替换的那几行自己的换行写回（endingOf），而不是整个文件第一个换行的写法",
    );

    await ws.put("batch.txt", "a = 1\nb = 2\n");
    // The loop runs a batch with Promise.all: both edits of one file must land.
    const results = await Promise.all([
      ws.call("edit", { path: "batch.txt", edits: [{ oldText: "a = 1", newText: "a = 10" }] }),
      ws.call("edit", { path: "./batch.txt", edits: [{ oldText: "b = 2", newText: "b = 20" }] }),
    ]);
    assert.deepEqual(
      results.map((result) => result.isError),
      [false, false],
      "同一批两次 edit 都成功",
    );
    assert.equal(await ws.contentOf("batch.txt"), "a = 10\nb = 20\n", "同一真实路径的修改按顺序串行，两次都落盘");
  });
});

// ---------------------------------------------------------------------------
// Lab 8.5 · 在进程组里运行命令
// ---------------------------------------------------------------------------

test("进程组命令：在 workspace 中运行，stdin 关闭，环境里没有密钥，stdout 与 stderr 合并并实时报告；返回时不留计时器；非零退出带退出码与输出尾部", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const progress: string[] = [];
    const reportProgress = (content: TextContent[]) => progress.push(content.map((block) => block.text).join(""));
    const ok = await ws.call("bash", { command: "pwd; echo to-stderr >&2; cat; echo done" }, { reportProgress });
    assert.equal(ok.isError, false, "退出码 0 是成功结果");
    // Two pipes: the order between stdout and stderr chunks is the order they were read in.
    const lines = resultText(ok).split("\n");
    assert.deepEqual(
      lines.filter((line) => line !== "to-stderr"),
      [ws.root, "done"],
      "在 workspace 中运行；cat 读到的 stdin 已关闭，立刻结束",
    );
    assert.ok(lines.includes("to-stderr"), "stderr 合并进同一份输出");
    assert.equal(progress.join(""), `${resultText(ok)}\n`, "输出到达时就通过 reportProgress 报告，与结果同序");
    assert.deepEqual(ok.details, { exitCode: 0 }, "details 带退出码");

    // A key in the agent's environment: the model's provider needs it, a command must not see it.
    const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, DEEPSEEK_API_KEY: process.env.DEEPSEEK_API_KEY };
    Object.assign(process.env, { OPENAI_API_KEY: "sk-course-test", DEEPSEEK_API_KEY: "sk-other-test" });
    const timersBefore = activeTimers();
    let env: string;
    try {
      env = resultText(await ws.call("bash", { command: "env" }));
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    assert.equal(
      activeTimers(),
      timersBefore,
      "bash 返回时不留下计时器：超时计时器要 clearTimeout，否则进程要等满超时（默认 120 秒）才能退出",
    );
    assert.ok(
      !env.includes("sk-course-test") && !env.includes("sk-other-test"),
      "bash 的环境里没有模型服务的密钥（OPENAI_API_KEY 与 *_API_KEY）：spawn 时用 shellEnvironment()",
    );
    assert.match(env, /^PATH=/m, "其余的环境照常传给命令");

    const controller = new AbortController();
    await ws.call("bash", { command: "echo listening" }, { signal: controller.signal });
    assert.equal(
      getEventListeners(controller.signal, "abort").length,
      0,
      "bash 返回时不留下 abort 监听：在 finally 里 clearTimeout 并移除 abort 监听，否则每条命令都在 signal 上留下一个",
    );

    const failed = await ws.call("bash", { command: "echo compiling; echo 'error: missing ;'; exit 3" });
    assert.equal(failed.isError, true, "非零退出是错误结果");
    assert.equal(
      resultText(failed),
      "compiling\nerror: missing ;\n\nCommand exited with code 3.",
      "错误带输出尾部和退出码",
    );
  });
});

test("进程组命令：超时与取消结束整个进程组（先 SIGTERM 后 SIGKILL），被信号结束的退出码是 128+n", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const pids = path.join(ws.root, "pids.txt");
    // A child that ignores SIGTERM: only SIGKILL of the whole group stops it. Should it outlive the
    // shell and sleep to the end, it leaves a mark: that is what a missing SIGKILL looks like.
    const slept = path.join(ws.root, "slept.txt");
    const command = `(trap '' TERM; sleep 10; echo slept > ${JSON.stringify(slept)}) & echo $! > ${JSON.stringify(pids)}; wait`;
    // On a busy machine the shell may not even have started its child within a short timeout: then
    // there is nothing to observe, so the same call runs again with a longer one (no wall-clock bet).
    let timedOut = await ws.call("bash", { command, timeout: 0.5 });
    for (const seconds of [2, 4]) {
      if (existsSync(pids)) break;
      timedOut = await ws.call("bash", { command, timeout: seconds });
    }
    assert.equal(timedOut.isError, true, "超时是错误结果");
    assert.match(resultText(timedOut), /^Command timed out after [\d.]+ seconds/, "说明超时的秒数");
    await waitUntilGone(Number(await readFile(pids, "utf8")));
    assert.equal(existsSync(slept), false, "忽略 SIGTERM 的后代被 SIGKILL 结束（shell 退出后也要发），而不是自己睡完");

    const controller = new AbortController();
    const aborted = ws.call(
      "bash",
      { command: `sleep 30 & echo $! > ${JSON.stringify(pids)}; echo started; wait` },
      {
        signal: controller.signal,
        reportProgress: () => controller.abort(),
      },
    );
    assert.match(resultText(await aborted), /Command aborted\.$/, "取消是错误结果");
    await waitUntilGone(Number(await readFile(pids, "utf8")));

    const signalled = await ws.call("bash", { command: "kill -KILL $$" });
    assert.match(resultText(signalled), /Command exited with code 137\.$/, "SIGKILL (9) 报告为 128+9");
  });
});

test("进程组命令：后台进程占着 stdout 也在 shell 退出时返回，这时取消仍然有效；超过上限只留尾部，完整输出在 notice 指明的临时文件里", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const pids = path.join(ws.root, "daemon.pid");
    const daemon = await ws.call("bash", {
      command: `sleep 30 & echo $! > ${JSON.stringify(pids)}; echo daemon started`,
    });
    assert.equal(resultText(daemon), "daemon started", "shell 退出即返回，不等后台进程关闭 stdout");
    process.kill(Number(await readFile(pids, "utf8")), "SIGKILL");

    // The background child writes from the start and without pause, with the shell's builtin echo only: no
    // process to spawn, so the pipes are never quiet long enough for the call to return. A 5 ms interval
    // aborts once the shell is gone (reaped: kill(pid, 0) fails), so the abort comes after the exit. Node
    // runs due timers in order, and the interval is always due before the tool's 1 s drain bound, however
    // long a busy machine stalls this process.
    const shellPid = path.join(ws.root, "shell.pid");
    const controller = new AbortController();
    const watch = setInterval(() => {
      if (pidFileProcessReaped(shellPid)) controller.abort();
    }, 5);
    const chatty = await ws
      .call(
        "bash",
        {
          command: `echo $$ > ${JSON.stringify(shellPid)}; (while :; do echo tick; done) & echo $! > ${JSON.stringify(pids)}; echo started`,
        },
        { signal: controller.signal },
      )
      .finally(() => clearInterval(watch));
    assert.match(
      resultText(chatty),
      /Command aborted\.$/,
      "超时与取消一直有效到调用返回：shell 退出后、后台子进程还在输出时取消，照样结束整个进程组",
    );
    await waitUntilGone(Number(await readFile(pids, "utf8")));

    const long = await ws.call("bash", { command: "seq 1 3000" });
    const text = resultText(long);
    const [body = "", notice = ""] = text.split("\n\n");
    assert.equal(body.split("\n").length, 2000, "保留最后 2000 行");
    assert.ok(body.startsWith("1001\n") && body.endsWith("\n3000"), "保留的是尾部");
    const match =
      /^\[Showing lines 1001-3000 of 3000\. Full output: (.+) \(kept until this agent process exits; at most 16 MB: the first 8 MB and the last 8 MB\)\]$/.exec(
        notice,
      );
    assert.ok(match, `notice 说明行范围、完整输出的位置与它的上限：${notice}`);
    const full = await readFile(match[1] as string, "utf8");
    assert.equal(full.split("\n").length, 3001, "临时文件里是完整输出");
  });
});

/** Timers that keep this process alive (Node lists a ref'd setTimeout as "Timeout"). */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
}

/** Waits until `pid` has ended (a zombie waiting for init to reap it counts as ended). */
async function waitUntilGone(pid: number): Promise<void> {
  while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}
