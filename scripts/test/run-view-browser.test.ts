// The run page in a real headless Chromium (the system's, driven by playwright-core): the session
// tree of a branched tiny-pi session and a click that changes the transcript, the concurrent
// demo's tool lanes ending in completion order, an unpaired call drawn red, session text that
// stays text, and no console error or request leaving the page. Without Chromium: one skip line
// (a failure under .ci/run, which installs it).
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { findChromium, launchChromium, NO_CHROMIUM, openRunPage } from "../lib/browser/chromium.js";
import { repoRoot } from "../lib/course/manifest.js";
import { demoPage } from "../lib/demo/demo-html.js";
import { runScenario } from "../lib/demo/demo-scenarios.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";

const tinyPi = path.join(repoRoot, "packages", "pi-coding-agent", "dist", "src", "cli", "main.js");
const chromiumPath = findChromium();

interface Entry {
  id: string;
  parentId: string | null;
  type: string;
}

function entriesOf(file: string): Entry[] {
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => JSON.parse(line) as Entry & { customType?: string })
    .filter((entry) => entry.customType !== "tiny-pi/durable"); // chapter 19's records: not rows of the tree
}

function pathIds(entries: Entry[], id: string): string[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const ids: string[] = [];
  for (let at = byId.get(id); at !== undefined; at = at.parentId === null ? undefined : byId.get(at.parentId))
    ids.push(at.id);
  return ids.reverse();
}

async function tinyPiIn(workspace: string, args: string[]): Promise<string> {
  const result = await runNode([tinyPi, "--workspace", workspace, ...args], workspace);
  assert.equal(result.code, 0, result.output);
  return result.output;
}

let browser: Browser | undefined;
let dir = "";
let releaseDir: () => void = () => undefined;
let dirRemoved: Promise<void> = Promise.resolve();

if (chromiumPath === undefined && process.env.PI_COURSE_REQUIRE_CHROMIUM === "1") {
  // .ci/run installs Chromium and sets this: there a missing browser is a failure, not a skip.
  test("CI 要求浏览器检查：没有找到 Chromium", () => assert.fail(NO_CHROMIUM));
} else if (chromiumPath === undefined) {
  test(NO_CHROMIUM, { skip: true }, () => undefined);
} else {
  before(async () => {
    browser = await launchChromium(chromiumPath);
    // The temp folder lives for the whole file: withTempDir removes it when `after` releases it.
    await new Promise<void>((ready) => {
      dirRemoved = withTempDir("run-view-browser-", (made) => {
        dir = made;
        ready();
        return new Promise<void>((done) => {
          releaseDir = done;
        });
      });
    });
  });
  // The removal is awaited here: the run ends this file's process (--test-force-exit) once its
  // hooks are done, and a removal still under way would leave the folder behind.
  after(async () => {
    await browser?.close();
    releaseDir();
    await dirRemoved;
  });

  test("浏览器里的会话树：条目数等于会话文件的条目数，叶的分支先显示，点另一条分支的叶，transcript 换成那条分支", async () => {
    const workspace = path.join(dir, "branched");
    mkdirSync(workspace);
    writeFileSync(path.join(workspace, "README.md"), "# tiny-pi\nA small agent runtime.\n");
    await tinyPiIn(workspace, []);
    const sessions = path.join(workspace, ".tiny-pi", "sessions");
    const file = path.join(sessions, readdirSync(sessions)[0] as string);
    const first = entriesOf(file);
    await tinyPiIn(workspace, ["--resume", file, "--leaf", (first[0] as Entry).id, "再读一次 README.md"]);
    const out = path.join(dir, "branched.html");
    await tinyPiIn(workspace, ["export", file, "--out", out]);
    const entries = entriesOf(file);

    const { page, watch } = await openRunPage(browser as Browser, out);
    assert.equal(await page.locator("#tree-rows [data-entry]").count(), entries.length, "树里每个条目一行");
    assert.match(
      (await page.locator("#entry-count").textContent()) ?? "",
      new RegExp(`^${entries.length} 个条目 · 2 个分支`),
    );
    // A paired result is drawn beside its call, inside the answer's card.
    const shown = () =>
      page.$$eval("#transcript-body > [data-entry], #transcript-body .pair[data-result]", (cards) =>
        cards.map((card) => card.getAttribute("data-entry") ?? card.getAttribute("data-result")),
      );
    const leaf = (entries.at(-1) as Entry).id;
    assert.deepEqual(await shown(), pathIds(entries, leaf), "先显示叶所在的分支");
    const otherLeaf = (first.at(-1) as Entry).id;
    await page.locator(`#tree-rows [data-entry="${otherLeaf}"]`).click();
    assert.deepEqual(await shown(), pathIds(entries, otherLeaf), "点了另一条分支的叶，transcript 是那条分支");
    assert.notDeepEqual(pathIds(entries, otherLeaf), pathIds(entries, leaf));
    assert.deepEqual(watch, { errors: [], requests: [] }, "没有控制台错误，没有离开页面的请求");
    await page.close();
  });

  test("浏览器里的 concurrent 演示：工具泳道按调用顺序（slow、fast）排列，各泳道的右端按完成顺序（fast 先）结束", async () => {
    const run = await runScenario("concurrent");
    const out = path.join(dir, "concurrent.html");
    writeFileSync(out, demoPage(run));
    const { page, watch } = await openRunPage(browser as Browser, out);
    const lanes = await page.$$eval(".lane", (rows) =>
      rows
        .filter((row) => row.getAttribute("data-lane")?.startsWith("tool-"))
        .map((row) => [...row.querySelectorAll(".span[data-call]")].map((span) => span.getAttribute("data-call"))),
    );
    assert.deepEqual(
      lanes,
      run.transcriptOrder.map((id) => [id]),
      "一次调用一条泳道，按调用顺序",
    );
    const ends = await page.$$eval(".span[data-call]", (spans) =>
      spans.map((span) => ({ id: span.getAttribute("data-call"), right: span.getBoundingClientRect().right })),
    );
    const byEnd = [...ends].sort((a, b) => a.right - b.right).map((end) => end.id);
    assert.deepEqual(byEnd, run.completionOrder, "按右端排序就是 tool_end 的完成顺序");
    assert.deepEqual(run.completionOrder, ["fast-call", "slow-call"]);
    assert.equal(await page.locator(".pair[data-call]:not(.unpaired)").count(), 2, "两个调用都挨着它们的结果");
    assert.deepEqual(watch, { errors: [], requests: [] }, "没有控制台错误，没有离开页面的请求");
    await page.close();
  });

  test("浏览器里没有结果的调用标红；会话里的 </script>、<img> 只是文字：标题不变，没有请求", async () => {
    const workspace = path.join(dir, "unpaired");
    mkdirSync(workspace);
    const file = path.join(workspace, "crashed.jsonl");
    const at = "2026-12-01T10:00:00.000Z";
    const hostile = '</script><script>document.title="pwned"</script><img src="x.png" onerror="document.title=1">';
    const lines = [
      { type: "session", version: 3, id: "crashed", timestamp: at, cwd: workspace },
      {
        type: "message",
        id: "00000001",
        parentId: null,
        timestamp: at,
        message: { role: "user", content: hostile, timestamp: 1 },
      },
      {
        type: "message",
        id: "00000002",
        parentId: "00000001",
        timestamp: at,
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } }],
          stopReason: "toolUse",
          timestamp: 2,
        },
      },
    ];
    writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const out = path.join(dir, "unpaired.html");
    await tinyPiIn(workspace, ["export", file, "--out", out]);
    const { page, watch } = await openRunPage(browser as Browser, out);
    const unpaired = page.locator('.pair.unpaired[data-call="call-1"] .call');
    assert.equal(await unpaired.count(), 1, "没有结果的调用被标出");
    assert.equal(
      await unpaired.evaluate((node) => node.ownerDocument.defaultView?.getComputedStyle(node).borderTopColor),
      "rgb(207, 34, 46)",
      "它是红的",
    );
    assert.equal(await page.title(), "会话 crashed.jsonl");
    assert.equal(await page.locator("#transcript-body .text").first().textContent(), hostile, "原样显示为文字");
    assert.equal(await page.locator("#transcript-body img").count(), 0);
    assert.deepEqual(watch, { errors: [], requests: [] }, "没有控制台错误，没有离开页面的请求");
    await page.close();
  });
}
