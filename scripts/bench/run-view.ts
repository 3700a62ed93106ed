// `npm run bench -- --only page`: the run page (tiny-pi export, npm run demo -- --html). The
// concurrent demo's page size; a generated 10,000-entry session (interactions of a question, two
// parallel calls whose results come back in reverse order and an answer, with branches) exported
// by the real tiny-pi, then opened in headless Chromium: from navigation start to the page's
// script having drawn the tree, the leaf's transcript and the timeline. And upstream Pi's
// `pi --offline --export` on the same file (a throwaway HOME): tiny-pi's files stay Pi's format.
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { findChromium, launchChromium, openRunPage } from "../lib/browser/chromium.js";
import { repoRoot } from "../lib/course/manifest.js";
import { demoPage } from "../lib/demo/demo-html.js";
import { runScenario } from "../lib/demo/demo-scenarios.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import type { Goal } from "./goals.js";
import { installedPackageDir } from "./pi-upstream.js";
import { PI_PACKAGE, PI_VERSION } from "./session-tree.js";
import { median } from "./stats.js";
import { fixed, goalText, type Table } from "./table.js";

export const PAGE_ENTRIES = 10_000;
export const PAGE_LIMIT_BYTES = 300 * 1024;
export const RENDER_LIMIT_MS = 2000;
const ROUNDS = 5;
/** Branches grown from earlier questions, five entries each, within the 10,000. */
const BRANCHES = 20;

export interface PageReport {
  concurrentBytes: number;
  entries: number;
  sessionBytes: number;
  pageBytes: number;
  exportMs: number;
  render: { ms: number; rows: number } | { reason: string };
  pi: { version: string; ms: number; bytes: number } | { reason: string };
}

const tinyPi = path.join(repoRoot, "packages", "pi-coding-agent", "dist", "src", "cli", "main.js");
const id = (index: number) => index.toString(16).padStart(8, "0");

/** One interaction (five entries) under `parent`, at `t` ms: question, two calls, results in reverse, answer. */
function interaction(first: number, parent: string | null, t: number): object[] {
  const at = (ms: number) => new Date(t + ms).toISOString();
  const calls = [0, 1].map((n) => ({
    type: "toolCall",
    id: `call-${first}-${n}`,
    name: "read",
    arguments: { path: `src/file-${n}.ts` },
  }));
  const result = (n: number, ms: number) => ({
    role: "toolResult",
    toolCallId: `call-${first}-${n}`,
    toolName: "read",
    content: [{ type: "text", text: `export const value${n} = ${first};\n`.repeat(3) }],
    isError: false,
    timestamp: t + ms,
  });
  const entry = (n: number, ms: number, message: object) => ({
    type: "message",
    id: id(first + n),
    parentId: n === 0 ? parent : id(first + n - 1),
    timestamp: at(ms),
    message,
  });
  return [
    entry(0, 0, { role: "user", content: `第 ${first} 个问题：读两个文件，告诉我它们导出什么。`, timestamp: t }),
    entry(1, 800, {
      role: "assistant",
      content: [{ type: "text", text: "我同时读取两个文件。" }, ...calls],
      stopReason: "toolUse",
      timestamp: t + 5,
    }),
    entry(2, 1400, result(1, 950)),
    entry(3, 1400, result(0, 1300)),
    entry(4, 2600, {
      role: "assistant",
      content: [{ type: "text", text: `两个文件都导出 ${first}。` }],
      stopReason: "stop",
      timestamp: t + 1400,
    }),
  ];
}

export async function writeSession(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    return out.write(line) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", resolve));
  };
  const start = Date.UTC(2026, 11, 1, 9);
  await write({
    type: "session",
    version: 3,
    id: "bench-page",
    timestamp: new Date(start).toISOString(),
    cwd: "/bench",
  });
  const chain = PAGE_ENTRIES / 5 - BRANCHES;
  for (let n = 0; n < chain; n += 1) {
    for (const line of interaction(n * 5 + 1, n === 0 ? null : id(n * 5), start + n * 60_000)) await write(line);
  }
  // Each branch grows from an earlier question, as --resume --leaf does.
  for (let b = 0; b < BRANCHES; b += 1) {
    const first = (chain + b) * 5 + 1;
    const from = id(Math.floor((b * chain) / BRANCHES) * 5 + 1);
    for (const line of interaction(first, from, start + (chain + b) * 60_000)) await write(line);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

async function measureRender(page: string): Promise<PageReport["render"]> {
  const executable = findChromium();
  if (executable === undefined)
    return { reason: "no Chromium installed (apt-get install -y chromium, or CHROMIUM_PATH)" };
  const browser = await launchChromium(executable);
  try {
    const times: number[] = [];
    let rows = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const { page: opened } = await openRunPage(browser, page);
      // From navigation start to the moment the page's script marked itself ready.
      times.push(await opened.evaluate(() => performance.now()));
      rows = await opened.locator("#tree-rows [data-entry]").count();
      await opened.close();
    }
    return { ms: median(times), rows };
  } finally {
    await browser.close();
  }
}

async function measurePiExport(
  file: string,
  dir: string,
  progress: (message: string) => void,
): Promise<PageReport["pi"]> {
  const installed = await installedPackageDir(PI_PACKAGE, PI_VERSION, progress);
  if ("reason" in installed) return { reason: installed.reason };
  const home = path.join(dir, "pi-home");
  mkdirSync(home);
  const out = path.join(dir, "pi-export.html");
  const cli = path.join(installed.dir, "dist", "cli.js");
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, "--offline", "--export", file, out], {
    cwd: dir,
    env: { ...process.env, HOME: home, USERPROFILE: home },
    encoding: "utf8",
  });
  const ms = performance.now() - started;
  if (result.status !== 0)
    return { reason: `pi --export failed: ${`${result.stderr}${result.stdout}`.trim().split("\n")[0]}` };
  return { version: installed.version, ms, bytes: (await stat(out)).size };
}

export async function measureRunPage(progress: (message: string) => void): Promise<PageReport> {
  const concurrentBytes = Buffer.byteLength(demoPage(await runScenario("concurrent")));
  return withTempDir("pi-bench-page-", async (dir) => {
    const file = path.join(dir, "session.jsonl");
    progress(`page: writing a ${PAGE_ENTRIES}-entry session…`);
    await writeSession(file);
    const out = path.join(dir, "session.html");
    const started = performance.now();
    const exported = await runNode([tinyPi, "--workspace", dir, "export", file, "--out", out], dir);
    const exportMs = performance.now() - started;
    if (exported.code !== 0) throw new Error(`tiny-pi export failed: ${exported.output.trim()}`);
    progress("page: rendering in headless Chromium…");
    const render = await measureRender(out);
    progress("page: upstream Pi's --export on the same file…");
    const pi = await measurePiExport(file, dir, progress);
    return {
      concurrentBytes,
      entries: PAGE_ENTRIES,
      sessionBytes: (await stat(file)).size,
      pageBytes: (await stat(out)).size,
      exportMs,
      render,
      pi,
    };
  });
}

export function pageGoals(report: PageReport): Goal[] {
  const goals: Goal[] = [
    {
      name: "page: npm run demo -- --scenario concurrent --html page size",
      value: report.concurrentBytes,
      limit: PAGE_LIMIT_BYTES,
      unit: "bytes",
      met: report.concurrentBytes <= PAGE_LIMIT_BYTES,
    },
  ];
  if ("ms" in report.render) {
    goals.push({
      name: `page: ${report.entries}-entry session rendered in headless Chromium`,
      value: report.render.ms,
      limit: RENDER_LIMIT_MS,
      unit: "ms",
      met: report.render.ms <= RENDER_LIMIT_MS,
    });
  }
  return goals;
}

export function pageTable(report: PageReport): Table {
  const kB = (bytes: number) => `${fixed(bytes / 1024, 1)} kB`;
  const render = "ms" in report.render ? report.render : undefined;
  const pi = "ms" in report.pi ? report.pi : undefined;
  return {
    title: `Run page: the concurrent demo, and a ${report.entries}-entry session (${BRANCHES + 1} branches, ${kB(report.sessionBytes)})`,
    headers: ["measure", "median ms", "size"],
    rows: [
      ["npm run demo -- --scenario concurrent --html", "", kB(report.concurrentBytes)],
      ["tiny-pi export (child process, whole command)", fixed(report.exportMs, 0), kB(report.pageBytes)],
      [
        `headless Chromium: navigation → tree (${render?.rows ?? "?"} of ${report.entries} rows drawn), transcript, timeline`,
        render ? fixed(render.ms, 0) : "—",
        "",
      ],
      [
        `upstream Pi ${pi?.version ?? ""} --offline --export of the same file`,
        pi ? fixed(pi.ms, 0) : "—",
        pi ? kB(pi.bytes) : "",
      ],
    ],
    notes: [
      ...("reason" in report.render ? [`render not measured: ${report.render.reason}`] : []),
      ...("reason" in report.pi ? [`upstream Pi not run: ${report.pi.reason}`] : []),
      ...pageGoals(report).map((entry) =>
        goalText(entry.name, `${fixed(entry.value, 0)} ${entry.unit}`, `${entry.limit} ${entry.unit}`, entry.met),
      ),
    ],
  };
}
