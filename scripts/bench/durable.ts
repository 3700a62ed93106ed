// `npm run bench -- --only durable`: chapter 19's cost. A step's durability overhead: the latency of
// one commit (a typical assistant entry, through the commit log into a real file) at the median and
// p99, with and without fsync; and recovery of a 100,000-entry session whose last answer has 1,000
// calls with committed intents and no results: opening the file (torn tail check included) and
// planning what to run again and what to mark interrupted.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../lib/course/manifest.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import { quantile } from "./stats.js";
import { fixed, type Table } from "./table.js";

export const COMMITS = 2_000;
export const RECOVERY_ENTRIES = 100_000;
export const OPEN_INTENTS = 1_000;

export interface DurableReport {
  commits: number;
  plain: { medianMs: number; p99Ms: number };
  fsync: { medianMs: number; p99Ms: number };
  recovery: { entries: number; openIntents: number; openMs: number; planMs: number; interrupted: number };
}

// biome-ignore lint/suspicious/noExplicitAny: the dist module is loaded at run time
type Durable = any;

async function load(): Promise<Durable> {
  return import(pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/index.js")).href);
}

const id = (n: number) => n.toString(16).padStart(8, "0");
const at = "2026-12-01T10:00:00.000Z";

async function commitLatency(
  durable: Durable,
  dir: string,
  fsync: boolean,
): Promise<{ medianMs: number; p99Ms: number }> {
  const file = path.join(dir, fsync ? "fsync.jsonl" : "plain.jsonl");
  writeFileSync(file, `${JSON.stringify(durable.newHeader(dir))}\n`);
  const log = new durable.CommitLog(file, { fsync });
  const times: number[] = [];
  for (let n = 0; n < COMMITS; n += 1) {
    const entry = {
      type: "message",
      id: id(n + 1),
      parentId: n === 0 ? null : id(n),
      timestamp: at,
      message: {
        role: "assistant",
        content: [{ type: "text", text: `第 ${n} 步：读一下 src/index.ts，再改一行。` }],
        stopReason: "stop",
        timestamp: n,
      },
    };
    const started = performance.now();
    await log.commit([entry]);
    times.push(performance.now() - started);
  }
  return { medianMs: quantile(times, 0.5), p99Ms: quantile(times, 0.99) };
}

function recoveryFile(durable: Durable, dir: string): string {
  const file = path.join(dir, "recovery.jsonl");
  const lines = [JSON.stringify(durable.newHeader(dir))];
  const calls = RECOVERY_ENTRIES - OPEN_INTENTS - 1;
  let parent: string | null = null;
  for (let n = 1; n <= calls; n += 1) {
    const role = n % 2 === 1 ? "user" : "assistant";
    const message =
      role === "user"
        ? { role, content: `问题 ${n}`, timestamp: n }
        : { role, content: [{ type: "text", text: `回答 ${n}` }], stopReason: "stop", timestamp: n };
    lines.push(JSON.stringify({ type: "message", id: id(n), parentId: parent, timestamp: at, message }));
    parent = id(n);
  }
  const asking = id(calls + 1);
  const toolCalls = Array.from({ length: OPEN_INTENTS }, (_, k) => ({
    type: "toolCall",
    id: `call_${k}`,
    name: k % 2 === 0 ? "bash" : "read",
    arguments: { path: `f${k}` },
  }));
  lines.push(
    JSON.stringify({
      type: "message",
      id: asking,
      parentId: parent,
      timestamp: at,
      message: { role: "assistant", content: toolCalls, stopReason: "toolUse", timestamp: calls + 1 },
    }),
  );
  for (let k = 0; k < OPEN_INTENTS; k += 1) {
    const record = {
      kind: "intent",
      callId: `call_${k}`,
      tool: k % 2 === 0 ? "bash" : "read",
      replaySafe: k % 2 === 1,
    };
    lines.push(JSON.stringify(durable.durableEntry(record, asking, id(calls + 2 + k), new Date(at))));
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

export async function measureDurable(): Promise<DurableReport> {
  const durable = await load();
  return withTempDir("tiny-pi-bench-durable-", async (dir: string) => {
    const plain = await commitLatency(durable, dir, false);
    const fsync = await commitLatency(durable, dir, true);
    const file = recoveryFile(durable, dir);
    const opened = performance.now();
    const store = await durable.DurableSessionStore.open(file);
    const openMs = performance.now() - opened;
    const planned = performance.now();
    const leaf = store.leafId();
    const branch = store.pathTo(leaf);
    const plan = durable.recoveryPlan(
      branch,
      (name: string) => name === "read",
      durable.recordsOf(store.entries(), branch),
    );
    const planMs = performance.now() - planned;
    return {
      commits: COMMITS,
      plain,
      fsync,
      recovery: {
        entries: store.entries().length,
        openIntents: OPEN_INTENTS,
        openMs,
        planMs,
        interrupted: plan.interrupted.length,
      },
    };
  });
}

export function durableTable(report: DurableReport): Table {
  return {
    title: `Durable execution: ${report.commits} single-entry commits; recovery of a ${report.recovery.entries}-entry session with ${report.recovery.openIntents} open intents`,
    headers: ["measure", "median ms", "p99 ms"],
    rows: [
      ["commit, no fsync (tiny-pi's default)", fixed(report.plain.medianMs, 3), fixed(report.plain.p99Ms, 3)],
      ["commit, fsync after each", fixed(report.fsync.medianMs, 3), fixed(report.fsync.p99Ms, 3)],
      ["recovery: open the file (ms)", fixed(report.recovery.openMs, 1), ""],
      [
        `recovery: plan (${report.recovery.interrupted} marked interrupted, the rest re-run) (ms)`,
        fixed(report.recovery.planMs, 1),
        "",
      ],
    ],
    notes: [],
  };
}
