// Part 4: chapter 08's workspace tools on large inputs. read and bash run in a fresh child node
// each, so its peak RSS (process.resourceUsage().maxRSS) is theirs; a child that only imports the
// tools gives Node's baseline. edit runs in this process on a 10 MB file.
import { spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createWorkspaceTools } from "@pi/coding-agent";
import { repoRoot } from "../lib/course/manifest.js";
import { type Summary, summarize } from "./stats.js";

const GIB = 2 ** 30;
const EDIT_FILE_LINES = 840_000; // "line N\n" lines: 10.0 MB

export interface ToolsReport {
  runs: number;
  /** Peak RSS of a child that only imports the tools, MiB. */
  baselineMiB: Summary;
  read: { ms: Summary; peakMiB: Summary };
  edit: { fileBytes: number; ms: Summary };
  bash: { ms: Summary; peakMiB: Summary; abortToExitMs: Summary };
}

interface ChildFigures {
  ms: number;
  maxRssMiB: number;
  abortToExitMs?: number;
}

const entry = pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/index.js")).href;

/** Runs an ES module script in a fresh node and parses the JSON of its last stdout line. */
function runChild<T>(script: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: string) => {
      output += chunk;
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) return reject(new Error(`bench child exited with ${String(code)}:\n${output}`));
      resolve(JSON.parse(output.trim().split("\n").pop() ?? "") as T);
    });
  });
}

/** Runs `body` (an async function body, the four tools in scope) in a fresh node: its time and peak RSS. */
function inChild(root: string, body: string): Promise<ChildFigures> {
  return runChild(`
    import { createWorkspaceTools } from ${JSON.stringify(entry)};
    const [read, write, edit, bash] = createWorkspaceTools(${JSON.stringify(root)});
    const started = performance.now();
    const figures = await (async () => { ${body} })();
    const ms = performance.now() - started;
    console.log(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, ...figures }));`);
}

/** 1000 text lines, a hole up to the 1 GiB mark, then 10 lines: sparse, so nearly nothing is written. */
async function makeSparseLog(file: string): Promise<number> {
  const head = Array.from({ length: 1000 }, (_, index) => `header ${index + 1}\n`).join("");
  const tail = `\n${Array.from({ length: 10 }, (_, index) => `line ${index + 1}\n`).join("")}`;
  const handle = await open(file, "w");
  await handle.write(head, 0);
  await handle.write(tail, GIB - Buffer.byteLength(tail));
  await handle.close();
  return 1000 + 1 + 1; // offset of "line 1": after the header lines and the hole's one long line
}

async function measureEdit(root: string, runs: number): Promise<ToolsReport["edit"]> {
  const content = Array.from({ length: EDIT_FILE_LINES }, (_, index) => `line ${index + 1}\n`).join("");
  await writeFile(path.join(root, "big.txt"), content);
  const edit = createWorkspaceTools(root)[2];
  if (edit === undefined) throw new Error("createWorkspaceTools returned no edit tool");
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const line = EDIT_FILE_LINES / 2 + run;
    const started = performance.now();
    await edit.execute({ path: "big.txt", edits: [{ oldText: `line ${line}\n`, newText: `edited ${line}\n` }] }, {});
    if (run > 0) times.push(performance.now() - started); // the first run warms up
  }
  const edited = await readFile(path.join(root, "big.txt"), "utf8");
  if (!edited.includes(`edited ${EDIT_FILE_LINES / 2 + runs}\n`)) throw new Error("bench: the last edit did not land");
  return { fileBytes: Buffer.byteLength(content), ms: summarize(times) };
}

/** Aborts `yes` (endless output) 200 ms after output starts; times abort() → the tool's promise settling. */
const ABORT_BODY = `
  const controller = new AbortController();
  let abortedAt = 0;
  let scheduled = false;
  const reportProgress = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => { abortedAt = performance.now(); controller.abort(); }, 200);
  };
  await bash.execute({ command: "yes" }, { signal: controller.signal, reportProgress }).catch(() => {});
  return { abortToExitMs: performance.now() - abortedAt };`;

export async function measureWorkspaceTools(runs: number): Promise<ToolsReport> {
  const root = await mkdtemp(path.join(os.tmpdir(), "pi-bench-tools-"));
  try {
    const offset = await makeSparseLog(path.join(root, "huge.log"));
    const baseline: number[] = [];
    const read = { ms: [] as number[], peak: [] as number[] };
    const bash = { ms: [] as number[], peak: [] as number[], abort: [] as number[] };
    for (let run = 0; run < runs; run += 1) {
      baseline.push((await inChild(root, "")).maxRssMiB);
      const readRun = await inChild(root, `await read.execute({ path: "huge.log", offset: ${offset} }, {});`);
      read.ms.push(readRun.ms);
      read.peak.push(readRun.maxRssMiB);
      const bashRun = await inChild(root, `await bash.execute({ command: "yes | head -c 1G" }, {});`);
      bash.ms.push(bashRun.ms);
      bash.peak.push(bashRun.maxRssMiB);
      bash.abort.push((await inChild(root, ABORT_BODY)).abortToExitMs ?? Number.NaN);
    }
    return {
      runs,
      baselineMiB: summarize(baseline),
      read: { ms: summarize(read.ms), peakMiB: summarize(read.peak) },
      edit: await measureEdit(root, Math.max(runs * 3, 5)),
      bash: { ms: summarize(bash.ms), peakMiB: summarize(bash.peak), abortToExitMs: summarize(bash.abort) },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
