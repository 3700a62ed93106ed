// tiny-pi export FILE [--out FILE.html] as a learner runs it (a real child process on real session
// files): the page embeds the session's own entries where no session text can break out of the
// data element, loads nothing from anywhere, and every bad call is one line that writes nothing.
// The timeline is derived from the timestamps a session file already holds (run-view/session-timeline.ts).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { sessionTimeline } from "../../src/cli/run-view/session-timeline.js";
import { readSessionFile } from "../../src/host/session-file.js";
import { isOneLine, runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";

/** The JSON a page embeds, parsed back. */
function embedded(page: string): { entries: { id: string }[]; leafId: string | null } {
  const match = /<script type="application\/json" id="run-data">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(match, "页面里有 run-data 数据块");
  return JSON.parse(match[1] as string);
}

async function fileEntries(file: string): Promise<unknown[]> {
  return (await readFile(file, "utf8"))
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.customType !== "tiny-pi/durable"); // chapter 19's records: not part of the page
}

test("tiny-pi export FILE：默认在会话旁写出同名 .html，内嵌的条目就是文件里的条目，叶是最后一个条目，页面不引用任何外部地址", async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    const exported = await runCli(["export", file], workspace);
    assert.equal(exported.code, 0, exported.stderr);
    const out = file.replace(/\.jsonl$/, ".html");
    assert.match(exported.stdout, /已写入 .*\.html（\d+ kB）/);
    const page = await readFile(out, "utf8");
    const data = embedded(page);
    const entries = await fileEntries(file);
    assert.deepEqual(data.entries, entries, "内嵌的条目与会话文件逐个相同");
    assert.equal(data.leafId, (entries.at(-1) as { id: string }).id);
    assert.doesNotMatch(page, /:\/\/|\s(?:src|href)=/, "没有外部 URL，也不加载任何资源");
    assert.match(page, /Content-Security-Policy" content="default-src 'none'/, "页面的策略不允许任何请求");
  });
});

test("tiny-pi export：会话里的 </script> 与标签只是数据：页面只有两个 script 元素，内嵌 JSON 原样还原这段文字", async () => {
  await withWorkspace(async (workspace) => {
    const hostile = '</script><script>document.title="pwned"</script><img src=x onerror=alert(1)>\u2028末尾';
    assert.equal((await runCli([hostile], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    const out = path.join(workspace, "run.html");
    assert.equal((await runCli(["export", file, "--out", "run.html"], workspace)).code, 0);
    const page = await readFile(out, "utf8");
    assert.equal(page.match(/<script/g)?.length, 2, "只有数据块与页面自己的脚本");
    assert.equal(page.match(/<\/script>/g)?.length, 2);
    const prompt = (embedded(page).entries[0] as unknown as { message: { content: string } }).message.content;
    assert.equal(prompt, hostile);
  });
});

test("tiny-pi export 的错误用法：一行中文、退出码 2，不写任何文件，已有的文件不变", async () => {
  await withWorkspace(async (workspace) => {
    assert.equal((await runCli([], workspace)).code, 0);
    const [file] = await sessionFiles(workspace);
    assert.ok(file !== undefined);
    await writeFile(path.join(workspace, "notes.txt"), "learner notes\n");
    const cases: [string[], RegExp][] = [
      [["export", "missing.jsonl"], /不存在/],
      [["export"], /export 要一个会话文件/],
      [["export", file, "--out", "notes.txt"], /不是 \.html 文件/],
      [["export", file, "--out", "no-such-dir/run.html"], /不存在/],
      [["--out", "run.html", "你好"], /--out 只和 export 一起用/],
      [["export", path.join(workspace, "README.md"), "--out", "readme.html"], /会话文件/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, workspace);
      assert.equal(result.code, 2, `${args.join(" ")}：${result.stderr}`);
      assert.ok(isOneLine(result.stderr), result.stderr);
      assert.match(result.stderr, message);
    }
    assert.equal(await readFile(path.join(workspace, "notes.txt"), "utf8"), "learner notes\n", "notes.txt 没被覆盖");
    for (const name of ["run.html", "readme.html", "missing.html"])
      assert.ok(!existsSync(path.join(workspace, name)), name);
    assert.deepEqual((await sessionFiles(workspace)).length, 1);
  });
});

test("时间线来自会话已有的 timestamp：同一批的两个调用各占一条工具泳道，先结束的在第二条；结果之后输入的一句是 steer；没有结果的调用是 open", async () => {
  await withWorkspace(async (workspace) => {
    const file = path.join(workspace, "timed.jsonl");
    const iso = (ms: number) => new Date(Date.UTC(2026, 11, 1) + ms).toISOString();
    const entry = (id: string, parentId: string | null, at: number, message: object) => ({
      type: "message",
      id,
      parentId,
      timestamp: iso(at),
      message,
    });
    const base = Date.UTC(2026, 11, 1);
    const call = (id: string) => ({ type: "toolCall", id, name: "read", arguments: { path: "README.md" } });
    const result = (id: string, at: number) => ({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: id }],
      isError: false,
      timestamp: base + at,
    });
    const lines = [
      { type: "session", version: 3, id: "timed", timestamp: iso(0), cwd: workspace },
      entry("00000001", null, 0, { role: "user", content: "读两个文件", timestamp: base }),
      entry("00000002", "00000001", 100, {
        role: "assistant",
        content: [call("slow"), call("fast")],
        stopReason: "toolUse",
        timestamp: base + 10,
      }),
      entry("00000003", "00000002", 600, result("slow", 500)),
      entry("00000004", "00000003", 600, result("fast", 200)),
      entry("00000005", "00000004", 600, { role: "user", content: "只回答项目名", timestamp: base + 300 }),
      entry("00000006", "00000005", 900, {
        role: "assistant",
        content: [call("late")],
        stopReason: "toolUse",
        timestamp: base + 600,
      }),
    ];
    await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const { entries } = readSessionFile(file);
    const timeline = sessionTimeline(entries);
    const spans = (lane: string) => timeline.spans.filter((span) => span.lane === lane);
    assert.deepEqual(
      spans("model").map(({ start, end }) => [start - base, end - base]),
      [
        [10, 100],
        [600, 900],
      ],
      "请求从 assistant 的 timestamp 到它的条目写下",
    );
    assert.deepEqual(
      timeline.spans
        .filter((span) => span.callId !== undefined)
        .map(({ lane, callId, start, end, state }) => [lane, callId, start - base, end - base, state]),
      [
        ["tool-1", "slow", 100, 500, "ok"],
        ["tool-2", "fast", 100, 200, "ok"],
        ["tool-1", "late", 900, 900, "open"],
      ],
    );
    assert.deepEqual(
      timeline.marks.map(({ kind, at }) => [kind, at - base]),
      [["steer", 300]],
    );
  });
});
