// `npm run bench -- --only compaction`: chapter 11's context building on one generated branch of
// 100,000 entries (interactions of a question, two parallel calls whose results come back in
// reverse order, and an answer) with 10 compaction entries on its path; the token estimate's
// throughput over the same messages; and, side by side, upstream Pi's `buildSessionContext` on the
// same file (installed under the temp folder by the session part, never a dependency).
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import type { Goal } from "./goals.js";
import { installedPackageDir } from "./pi-upstream.js";
import { PI_PACKAGE, PI_VERSION } from "./session-tree.js";
import { fixed, goalText, type Table } from "./table.js";

export const BRANCH_ENTRIES = 100_000;
export const COMPACTIONS = 10;
export const BUILD_LIMIT_MS = 50;
export const ESTIMATE_LIMIT_MB_S = 50;
const ROUNDS = 21;
/** Rounds of the measures that take seconds (pathTo's deep copies, Pi's buildSessionContext). */
const SLOW_ROUNDS = 5;
/** The budget of the context built: a 128k window, Pi's default reserve, a 2k system prompt. */
const BUDGET = { contextWindow: 128_000, reserveTokens: 16_384, systemPromptTokens: 2_000 };

export interface CompactionReport {
  entries: number;
  compactions: number;
  fileBytes: number;
  ours: { pathMs: number; buildMs: number; messages: number; tokens: number; dropped: number };
  estimate: { bytes: number; ms: number; mbPerSecond: number };
  pi: { version: string; buildMs: number; messages: number } | { reason: string };
}

const id = (index: number) => index.toString(16).padStart(8, "0");
const AT = "2026-12-01T10:00:00.000Z";
const WORDS = "把 greet() 的问候改成中文，并保持 farewell() 不变；先读文件再改。 ".repeat(2);
const CODE = 'export const greet = () => "Hello";\nexport const farewell = () => "Goodbye";\n'.repeat(3);

/** Writes the branch; a compaction replaces every 10,000th entry and keeps the 2,000 entries before it. */
export async function generateCompactedBranch(file: string): Promise<string> {
  const out = createWriteStream(file);
  const write = (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    return out.write(line) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", resolve));
  };
  await write({ type: "session", version: 3, id: "bench-compaction", timestamp: AT, cwd: "/bench" });
  const every = BRANCH_ENTRIES / COMPACTIONS;
  for (let index = 1; index <= BRANCH_ENTRIES; index += 1) {
    const base = { id: id(index), parentId: index === 1 ? null : id(index - 1), timestamp: AT };
    if (index % every === 0) {
      // Entry index − 2,000 + 1 is at an interaction's start (entries come in fives from 1).
      await write({
        type: "compaction",
        ...base,
        summary: `## Goal\n${WORDS}\n\n## Done\n- ${index} entries so far`,
        firstKeptEntryId: id(index - 2000 + 1),
        tokensBefore: index * 50,
        details: { readFiles: ["src/greet.ts"], modifiedFiles: ["src/farewell.ts"] },
      });
      continue;
    }
    const n = Math.floor((index - 1) / 5);
    const calls = [
      { type: "toolCall", id: `r${n}`, name: "read", arguments: { path: "src/greet.ts" } },
      { type: "toolCall", id: `e${n}`, name: "edit", arguments: { path: "src/greet.ts", edits: [] } },
    ];
    const result = (call: (typeof calls)[number]) => ({
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text", text: CODE }],
      isError: false,
      timestamp: index,
    });
    const usage = { input: 1000 + index, output: 60 };
    const message = [
      { role: "user", content: `${index}: ${WORDS}`, timestamp: index },
      {
        role: "assistant",
        content: [{ type: "text", text: WORDS }, ...calls],
        stopReason: "toolUse",
        timestamp: index,
        usage,
      },
      result(calls[1] as (typeof calls)[number]),
      result(calls[0] as (typeof calls)[number]),
      {
        role: "assistant",
        content: [{ type: "text", text: `${index}: ${WORDS}` }],
        stopReason: "stop",
        timestamp: index,
      },
    ][(index - 1) % 5];
    await write({ type: "message", ...base, message });
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return id(BRANCH_ENTRIES - 1);
}

async function runMeasure(script: string, args: string[]): Promise<unknown> {
  const result = await runNode(["--input-type=module", "-e", script, ...args], repoRoot);
  if (result.code !== 0) throw new Error(`compaction bench child failed: ${result.output.split("\n")[0]}`);
  return JSON.parse(result.output.trim().split("\n").at(-1) ?? "");
}

const MEDIAN = `const median = (run, rounds = ${ROUNDS}) => { const times = []; let out;
  for (let n = 0; n < rounds; n += 1) { const started = performance.now(); out = run(); times.push(performance.now() - started); }
  times.sort((a, b) => a - b); return { ms: times[times.length >> 1], out }; };`;

function oursModule(): string {
  return pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/index.js")).href;
}

async function measureOurs(
  file: string,
  leaf: string,
): Promise<Omit<CompactionReport, "pi" | "entries" | "compactions" | "fileBytes">> {
  const script = `
    import { JsonlSessionStore, pathTo, buildContext, estimateTokens } from ${JSON.stringify(oursModule())};
    ${MEDIAN}
    const entries = (await JsonlSessionStore.open(process.argv[1])).entries();
    const walked = median(() => pathTo(entries, process.argv[2]), ${SLOW_ROUNDS});
    const path = walked.out;
    const built = median(() => buildContext(path, ${JSON.stringify(BUDGET)}));
    const messages = path.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
    const bytes = messages.reduce((sum, message) => sum + Buffer.byteLength(JSON.stringify(message.content)), 0);
    const estimated = median(() => messages.reduce((sum, message) => sum + estimateTokens(message), 0));
    console.log(JSON.stringify({
      ours: { pathMs: walked.ms, buildMs: built.ms, messages: built.out.messages.length, tokens: built.out.tokens, dropped: built.out.dropped.length },
      estimate: { bytes, ms: estimated.ms, mbPerSecond: bytes / 1e6 / (estimated.ms / 1000) },
    }));`;
  return (await runMeasure(script, [file, leaf])) as Omit<
    CompactionReport,
    "pi" | "entries" | "compactions" | "fileBytes"
  >;
}

async function measurePi(
  file: string,
  leaf: string,
  dir: string,
  progress: (message: string) => void,
): Promise<CompactionReport["pi"]> {
  const installed = await installedPackageDir(PI_PACKAGE, PI_VERSION, progress);
  if ("reason" in installed) return { reason: installed.reason };
  const entry = pathToFileURL(path.join(installed.dir, "dist", "index.js")).href;
  const script = `
    import { SessionManager, buildSessionContext } from ${JSON.stringify(entry)};
    ${MEDIAN}
    const entries = SessionManager.open(process.argv[1], ${JSON.stringify(dir)}).getEntries();
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const built = median(() => buildSessionContext(entries, process.argv[2], byId), ${SLOW_ROUNDS});
    console.log(JSON.stringify({ version: ${JSON.stringify(installed.version)}, buildMs: built.ms, messages: built.out.messages.length }));`;
  return (await runMeasure(script, [file, leaf])) as CompactionReport["pi"];
}

export async function measureCompaction(progress: (message: string) => void): Promise<CompactionReport> {
  return withTempDir("pi-bench-compaction-", async (dir) => {
    const file = path.join(dir, "compacted.jsonl");
    progress(`generating a ${BRANCH_ENTRIES}-entry branch with ${COMPACTIONS} compactions…`);
    const leaf = await generateCompactedBranch(file);
    const fileBytes = (await stat(file)).size;
    progress("building its context: ours…");
    const ours = await measureOurs(file, leaf);
    progress("building its context: upstream Pi's buildSessionContext…");
    const pi = await measurePi(file, leaf, dir, progress);
    return { entries: BRANCH_ENTRIES, compactions: COMPACTIONS, fileBytes, ...ours, pi };
  });
}

export function compactionGoals(report: CompactionReport): Goal[] {
  return [
    {
      name: "compaction: buildContext of a 100,000-entry branch, 10 compactions",
      value: report.ours.buildMs,
      limit: BUILD_LIMIT_MS,
      unit: "ms",
      met: report.ours.buildMs <= BUILD_LIMIT_MS,
    },
    {
      name: "compaction: token estimate throughput (at least)",
      value: report.estimate.mbPerSecond,
      limit: ESTIMATE_LIMIT_MB_S,
      unit: "MB/s",
      met: report.estimate.mbPerSecond >= ESTIMATE_LIMIT_MB_S,
    },
  ];
}

export function compactionTable(report: CompactionReport): Table {
  return {
    title: `Compaction: one branch of ${report.entries} entries, ${report.compactions} compactions on it, ${fixed(report.fileBytes / 2 ** 20, 1)} MiB`,
    headers: ["measure", "median ms", "messages out"],
    rows: [
      ["ours: pathTo (root → leaf, deep copies)", fixed(report.ours.pathMs, 1), ""],
      [
        `ours: buildContext (newest summary + suffix, cut to a 128k window: ${report.ours.tokens} tokens, ${report.ours.dropped} dropped)`,
        fixed(report.ours.buildMs, 1),
        String(report.ours.messages),
      ],
      [
        `ours: estimateTokens over the branch's ${report.estimate.bytes} content bytes (${fixed(report.estimate.mbPerSecond, 0)} MB/s)`,
        fixed(report.estimate.ms, 1),
        "",
      ],
      "buildMs" in report.pi
        ? [
            `Pi ${report.pi.version}: buildSessionContext (walks the tree itself; no budget cut)`,
            fixed(report.pi.buildMs, 1),
            String(report.pi.messages),
          ]
        : [`Pi's buildSessionContext: not measured (${report.pi.reason})`, "", ""],
    ],
    notes: [
      `median of ${ROUNDS} runs (${SLOW_ROUNDS} for pathTo and Pi) in one fresh node each side; the file is written once and read by both`,
      ...compactionGoals(report).map((entry) =>
        goalText(entry.name, `${fixed(entry.value, 1)} ${entry.unit}`, `${entry.limit} ${entry.unit}`, entry.met),
      ),
    ],
  };
}
