// `npm run bench -- --only session`: chapter 10's session tree on one generated session of
// 100,000 entries (≈ 50 MB, 20 branches). Each measure runs in a fresh node, so its peak RSS is
// its own: opening and recovering the file, then projecting one branch to messages; appending
// 1,000 entries one by one; and, side by side, upstream Pi's SessionManager opening the same file
// and building the same branch's context (installed under the temp folder, never a dependency).
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import type { Goal } from "./goals.js";
import { installedPackageDir } from "./pi-upstream.js";
import { fixed, goalText, type Table } from "./table.js";

export const SESSION_ENTRIES = 100_000;
export const SESSION_BRANCHES = 20;
export const APPENDS = 1_000;
export const OPEN_LIMIT_MS = 1000;
export const HEAP_OVER_FILE_LIMIT = 2;
export const APPEND_MEDIAN_LIMIT_MS = 1;
export const OURS_OVER_PI_LIMIT = 1;

export const PI_PACKAGE = "@mariozechner/pi-coding-agent";
export const PI_VERSION = "0.73.1";

interface OpenFigures {
  ms: number;
  /** Heap held after opening and projecting (after a full GC), minus the heap before. */
  heapBytes: number;
  peakRssBytes: number;
  messages: number;
}

export interface SessionReport {
  entries: number;
  branches: number;
  fileBytes: number;
  leaf: string;
  ours: OpenFigures;
  pi: ({ version: string } & OpenFigures) | { reason: string };
  append: { count: number; medianMs: number; p95Ms: number; bytesWritten: number; peakRssBytes: number };
}

const id = (index: number) => index.toString(16).padStart(8, "0");
const AT = "2026-12-01T10:00:00.000Z";
const WORDS = "把 greet() 的问候改成中文，并保持 farewell() 不变；先读文件再改。 ".repeat(4);

/** Writes the session: branch b's 5,000 entries hang off the middle of branch b−1. Resolves with the leaf of the middle branch. */
export async function generateSession(file: string): Promise<string> {
  const out = createWriteStream(file);
  const write = (line: string) =>
    out.write(line) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", resolve));
  await write(
    `${JSON.stringify({ type: "session", version: 3, id: "bench-session", timestamp: AT, cwd: "/bench" })}\n`,
  );
  const perBranch = SESSION_ENTRIES / SESSION_BRANCHES;
  let middleLeaf = "";
  for (let index = 1; index <= SESSION_ENTRIES; index += 1) {
    const branch = Math.floor((index - 1) / perBranch);
    const first = (index - 1) % perBranch === 0;
    const parentId = index === 1 ? null : first ? id(index - perBranch / 2) : id(index - 1);
    const message =
      index % 2 === 1
        ? { role: "user", content: `${index}: ${WORDS}`, timestamp: index }
        : {
            role: "assistant",
            content: [{ type: "text", text: `${index}: ${WORDS}` }],
            stopReason: "stop",
            timestamp: index,
          };
    await write(`${JSON.stringify({ type: "message", id: id(index), parentId, timestamp: AT, message })}\n`);
    if (branch === SESSION_BRANCHES / 2 && index % perBranch === 0) middleLeaf = id(index);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return middleLeaf;
}

const MEASURE_OPEN = (load: string) => `
  ${load}
  const file = process.argv[1], leaf = process.argv[2];
  globalThis.gc(); const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const messages = await project(file, leaf);
  const ms = performance.now() - started;
  globalThis.gc();
  const heapBytes = process.memoryUsage().heapUsed - before;
  console.log(JSON.stringify({ ms, heapBytes, peakRssBytes: process.resourceUsage().maxRSS * 1024, messages: messages.length, keep: typeof held }));
`;

function oursModule(): string {
  return pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/index.js")).href;
}

async function runMeasure(script: string, args: string[]): Promise<unknown> {
  const result = await runNode(["--expose-gc", "--input-type=module", "-e", script, ...args], repoRoot);
  if (result.code !== 0) throw new Error(`session bench child failed: ${result.output.split("\n")[0]}`);
  const last = result.output.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last);
}

async function measureOursOpen(file: string, leaf: string): Promise<OpenFigures> {
  const load = `
    import { JsonlSessionStore } from ${JSON.stringify(oursModule())};
    let held;
    const project = async (file, leaf) => { held = await JsonlSessionStore.open(file); return held.messagesOnPath(leaf); };`;
  return (await runMeasure(MEASURE_OPEN(load), [file, leaf])) as OpenFigures;
}

async function measurePiOpen(
  file: string,
  leaf: string,
  dir: string,
  progress: (message: string) => void,
): Promise<SessionReport["pi"]> {
  const installed = await installedPackageDir(PI_PACKAGE, PI_VERSION, progress);
  if ("reason" in installed) return { reason: installed.reason };
  const entry = pathToFileURL(path.join(installed.dir, "dist", "index.js")).href;
  const load = `
    import { SessionManager } from ${JSON.stringify(entry)};
    let held;
    const project = async (file, leaf) => {
      held = SessionManager.open(file, ${JSON.stringify(dir)});
      held.branch(leaf);
      return held.buildSessionContext().messages;
    };`;
  const figures = (await runMeasure(MEASURE_OPEN(load), [file, leaf])) as OpenFigures;
  return { version: installed.version, ...figures };
}

async function measureAppends(file: string, leaf: string): Promise<SessionReport["append"]> {
  const script = `
    import { JsonlSessionStore, messageEntry } from ${JSON.stringify(oursModule())};
    const store = await JsonlSessionStore.open(process.argv[1]);
    let parent = process.argv[2];
    const times = [];
    for (let n = 0; n < ${APPENDS}; n += 1) {
      const entry = messageEntry({ role: "user", content: "追加 " + n + " ${WORDS.slice(0, 40)}", timestamp: n }, parent, (0xf0000000 + n).toString(16));
      const started = performance.now();
      await store.append(entry);
      times.push(performance.now() - started);
      parent = entry.id;
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ medianMs: times[times.length >> 1], p95Ms: times[Math.floor(times.length * 0.95)], peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
  `;
  const before = (await stat(file)).size;
  const figures = (await runMeasure(script, [file, leaf])) as Omit<SessionReport["append"], "count" | "bytesWritten">;
  return { count: APPENDS, ...figures, bytesWritten: (await stat(file)).size - before };
}

export async function measureSessionTree(progress: (message: string) => void): Promise<SessionReport> {
  return withTempDir("pi-bench-session-", async (dir) => {
    const file = path.join(dir, "bench.jsonl");
    progress(`generating a ${SESSION_ENTRIES}-entry session…`);
    const leaf = await generateSession(file);
    const fileBytes = (await stat(file)).size;
    progress("opening it: ours…");
    const ours = await measureOursOpen(file, leaf);
    progress("opening it: upstream Pi's SessionManager…");
    const pi = await measurePiOpen(file, leaf, dir, progress);
    progress(`appending ${APPENDS} entries…`);
    const append = await measureAppends(file, leaf);
    return { entries: SESSION_ENTRIES, branches: SESSION_BRANCHES, fileBytes, leaf, ours, pi, append };
  });
}

function goal(name: string, value: number, limit: number, unit: string): Goal {
  return { name, value, limit, unit, met: value <= limit };
}

export function sessionGoals(report: SessionReport): Goal[] {
  return [
    goal("session: open + project 100,000 entries", report.ours.ms, OPEN_LIMIT_MS, "ms"),
    goal("session: heap held ÷ file size", report.ours.heapBytes / report.fileBytes, HEAP_OVER_FILE_LIMIT, "×"),
    goal("session: append, median per entry", report.append.medianMs, APPEND_MEDIAN_LIMIT_MS, "ms"),
    ...("ms" in report.pi
      ? [
          goal(
            "session: ours ÷ Pi's SessionManager, open + project",
            report.ours.ms / report.pi.ms,
            OURS_OVER_PI_LIMIT,
            "×",
          ),
        ]
      : []),
  ];
}

export function sessionTable(report: SessionReport): Table {
  const mib = (bytes: number) => fixed(bytes / 2 ** 20, 1);
  const open = (label: string, figures: OpenFigures) => [
    label,
    fixed(figures.ms, 0),
    mib(figures.heapBytes),
    mib(figures.peakRssBytes),
    String(figures.messages),
  ];
  return {
    title: `Session tree: one session of ${report.entries} entries, ${report.branches} branches, ${mib(report.fileBytes)} MiB`,
    headers: ["measure", "ms", "heap held, MiB", "peak RSS, MiB", "messages"],
    rows: [
      open("ours: JsonlSessionStore.open + messagesOnPath", report.ours),
      "ms" in report.pi
        ? open(`Pi ${report.pi.version}: SessionManager.open + branch + buildSessionContext`, report.pi)
        : [`Pi's SessionManager: not measured (${report.pi.reason})`, "", "", "", ""],
      [
        `ours: ${report.append.count} appends, median (p95) per entry`,
        `${fixed(report.append.medianMs, 3)} (${fixed(report.append.p95Ms, 3)})`,
        "",
        mib(report.append.peakRssBytes),
        `${report.append.bytesWritten} bytes written`,
      ],
    ],
    notes: [
      "each measure runs in a fresh node (--expose-gc); heap held is heapUsed after a full GC minus before",
      ...sessionGoals(report).map((entry) =>
        goalText(entry.name, `${fixed(entry.value, 2)} ${entry.unit}`, `${entry.limit} ${entry.unit}`, entry.met),
      ),
    ],
  };
}
