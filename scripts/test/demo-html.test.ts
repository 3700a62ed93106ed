// npm run demo -- --html FILE.html without a browser: the page written by the real demo command,
// the run's transcript as the page's entries, and the timeline's lanes and spans for the chapter's
// situations (completion order, steer and follow-up, compaction). The browser check is
// run-view-browser.test.ts.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";
import { demoTimeline, demoView } from "../lib/demo/demo-html.js";
import { runScenario } from "../lib/demo/demo-scenarios.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";

test("npm run demo -- --scenario concurrent --html FILE：写出一个页面，内嵌的条目是这次运行的 transcript，打印一行写到哪里", async () => {
  await withTempDir("demo-html-", async (dir) => {
    const out = path.join(dir, "concurrent.html");
    const { code, output } = await runNode(
      ["--import", "tsx", "scripts/demo.ts", "--scenario", "concurrent", "--html", out],
      repoRoot,
    );
    assert.equal(code, 0, output);
    assert.match(output, /已写入 .*concurrent\.html（\d+ kB）/);
    const page = readFileSync(out, "utf8");
    const json = /<script type="application\/json" id="run-data">([\s\S]*?)<\/script>/.exec(page)?.[1];
    assert.ok(json !== undefined);
    const data = JSON.parse(json) as { entries: { message: { role: string } }[] };
    const run = await runScenario("concurrent");
    assert.deepEqual(
      data.entries.map((entry) => entry.message.role),
      run.result.messages.map((message) => message.role),
    );
  });
});

test("npm run demo -- --html 的错误用法：一行中文、非零退出，不写文件，已有文件不变", async () => {
  await withTempDir("demo-html-", async (dir) => {
    const notes = path.join(dir, "notes.txt");
    writeFileSync(notes, "learner notes\n");
    const cases: [string[], RegExp][] = [
      [["--html", notes], /不是 \.html 文件/],
      [["--html", path.join(dir, "missing", "run.html")], /不存在/],
      [["--json", "--html", path.join(dir, "run.html")], /只能选一个/],
    ];
    for (const [args, message] of cases) {
      const { code, output } = await runNode(["--import", "tsx", "scripts/demo.ts", ...args], repoRoot);
      assert.notEqual(code, 0, args.join(" "));
      assert.equal(output.trim().split("\n").length, 1, output);
      assert.match(output, message);
    }
    assert.equal(readFileSync(notes, "utf8"), "learner notes\n");
    assert.ok(!existsSync(path.join(dir, "run.html")));
  });
});

test("concurrent 的时间线：slow、fast 各占一条工具泳道（调用顺序），fast 的 span 先结束（完成顺序）", async () => {
  const run = await runScenario("concurrent");
  const timeline = demoTimeline(run);
  const tools = timeline.spans.filter((span) => span.callId !== undefined);
  assert.deepEqual(
    tools.map((span) => [span.lane, span.callId]),
    [
      ["tool-1", "slow-call"],
      ["tool-2", "fast-call"],
    ],
  );
  assert.deepEqual(
    [...tools].sort((a, b) => a.end - b.end).map((span) => span.callId),
    run.completionOrder,
  );
  assert.equal(timeline.unit, "event");
});

test("agent 的时间线：steer 与 follow-up 在 read 运行时排队，steer 在请求 2 开始时进入，follow-up 开始第 2 轮", async () => {
  const run = await runScenario("agent");
  const { marks, spans } = demoTimeline(run);
  const read = spans.find((span) => span.callId === "call-1");
  assert.ok(read !== undefined);
  const queued = marks.filter((mark) => mark.kind === "queued");
  assert.equal(queued.length, 2);
  for (const mark of queued) assert.ok(mark.at > read.start && mark.at < read.end, "排队发生在 read 运行期间");
  const model = spans.filter((span) => span.lane === "model");
  const loop = spans.filter((span) => span.lane === "loop");
  assert.equal(model.length, 3);
  assert.equal(loop.length, 2, "followUp 作为新的一轮运行");
  assert.equal(marks.find((mark) => mark.kind === "steer")?.at, model[1]?.start, "steer 在请求 2 开始时进入");
  assert.equal(marks.find((mark) => mark.kind === "followUp")?.at, loop[1]?.start, "follow-up 开始第 2 轮");
});

test("compaction 的页面：条目是会话里的条目（含 compaction 条目），时间线在请求 3 开始处标出压缩", async () => {
  const run = await runScenario("compaction");
  const view = demoView(run);
  assert.ok(
    view.entries.some((entry) => entry.type === "compaction"),
    "页面的树里有压缩条目",
  );
  const mark = view.timeline.marks.find((each) => each.kind === "compaction");
  assert.ok(mark !== undefined);
  const third = view.timeline.spans.filter((span) => span.lane === "model")[1];
  assert.equal(mark.at, third?.start, "压缩标在摘要之后的那次请求开始处");
});
