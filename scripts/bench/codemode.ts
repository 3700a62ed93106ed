// `npm run bench -- --only codemode` (chapter 16): a fresh VM per run, from execute to the script's
// first instruction, split into the worker's start and the VM's creation; one script that reads 20
// files against the same work as 20 direct calls through the loop and the scripted model (requests,
// tokens sent, wall time); and the peak RSS of a fresh node running the engine, idle and after 100
// runs (each its own process, so the peaks are its own).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
// The compiled package: the sandbox starts its worker from dist/codemode/worker.js, beside the module.
import { createCodeTool, createWorkspaceTools, estimateTextTokens, runCode } from "@pi/coding-agent";
import { assistantMessage, ScriptedModel, type ToolCall, ToolRegistry, text } from "@pi/core";
import { runAgentLoop } from "@pi/course";
import { repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import { type Goal, goal } from "./goals.js";
import { median } from "./stats.js";
import { fixed, goalText, type Table } from "./table.js";

export const FIRST_INSTRUCTION_LIMIT_MS = 30;
export const RSS_GROWTH_LIMIT_MB = 16;
const FILES = 20;
const RUNS_FOR_RSS = 100;

interface LoopFigures {
  requests: number;
  tokensSent: number;
  wallMs: number;
}

export interface CodemodeReport {
  runs: number;
  /** Medians, ms: execute → worker running, worker running → first script instruction, and the sum. */
  workerStartMs: number;
  vmCreateMs: number;
  firstInstructionMs: number;
  direct: LoopFigures;
  script: LoopFigures;
  rss: { idleMb: number; after100Mb: number };
}

export async function measureCodemode(runs: number): Promise<CodemodeReport> {
  const worker: number[] = [];
  const vm: number[] = [];
  const total: number[] = [];
  for (let index = 0; index < runs + 3; index += 1) {
    const run = await runCode({ code: "return 1", tools: [], parentId: "bench" });
    if (run.timings === undefined) throw new Error(`bench: a codemode run failed: ${run.error}`);
    if (index < 3) continue; // warm-up: the engine module is compiled once per process
    worker.push(run.timings.workerStart - run.timings.execute);
    vm.push(run.timings.scriptStart - run.timings.workerStart);
    total.push(run.timings.scriptStart - run.timings.execute);
  }
  const { direct, script } = await compareWithLoop();
  return {
    runs,
    workerStartMs: median(worker),
    vmCreateMs: median(vm),
    firstInstructionMs: median(total),
    direct,
    script,
    rss: await measureRss(),
  };
}

/** The same 20 reads: one call per request through the loop, or one code call whose script reads all. */
async function compareWithLoop(): Promise<{ direct: LoopFigures; script: LoopFigures }> {
  return withTempDir("pi-bench-codemode-", async (dir) => {
    for (let index = 0; index < FILES; index += 1) {
      await writeFile(path.join(dir, `f${index}.ts`), `export const value${index} = ${index};\n`.repeat(40));
    }
    const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({
      type: "toolCall",
      id,
      name,
      arguments: args,
    });
    const done = assistantMessage([text("20 files, 800 lines")], "stop");
    const directTurns = Array.from({ length: FILES }, (_, index) =>
      assistantMessage([call(`c${index}`, "read", { path: `f${index}.ts` })], "toolUse"),
    );
    const code = `let lines = 0;
for (let i = 0; i < ${FILES}; i++) lines += (await tools.read({path: "f" + i + ".ts"})).split("\\n").length;
return ${FILES} + " files, " + lines + " lines";`;
    const scriptTurns = [assistantMessage([call("c0", "code", { code })], "toolUse")];
    return {
      direct: await loopFigures(dir, [...directTurns, done], false),
      script: await loopFigures(dir, [...scriptTurns, done], true),
    };
  });
}

async function loopFigures(dir: string, turns: ReturnType<typeof assistantMessage>[], withCode: boolean) {
  const tools = new ToolRegistry();
  const workspace = createWorkspaceTools(dir).filter((tool) => tool.name === "read");
  for (const tool of workspace) tools.register(tool);
  if (withCode) tools.register(createCodeTool({ callable: () => workspace }));
  const model = new ScriptedModel(turns);
  const started = performance.now();
  const result = await runAgentLoop({
    model,
    tools,
    context: { messages: [{ role: "user", content: "数一数", timestamp: 0 }] },
  });
  const wallMs = performance.now() - started;
  if (result.reason !== "stop") throw new Error(`bench: the scripted loop ended ${result.reason}`);
  const tokensSent = model.requests.reduce((sum, request) => sum + estimateTextTokens(JSON.stringify(request)), 0);
  return { requests: model.requests.length, tokensSent, wallMs };
}

/** Peak RSS of a fresh node that loaded the engine and ran one script, then of one that ran 100. */
async function measureRss(): Promise<{ idleMb: number; after100Mb: number }> {
  const entry = pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/codemode/index.js")).href;
  const peak = async (runs: number) => {
    const program = `const { runCode } = await import(${JSON.stringify(entry)});
for (let i = 0; i < ${runs}; i++) {
  const run = await runCode({ code: "let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s", tools: [], parentId: "b" });
  if (!run.ok) throw new Error(run.error);
}
console.log("maxRSS " + process.resourceUsage().maxRSS);`;
    const result = await runNode(["--input-type=module", "-e", program], repoRoot);
    const kilobytes = /maxRSS (\d+)/.exec(result.output)?.[1];
    if (result.code !== 0 || kilobytes === undefined) {
      throw new Error(`bench: the RSS child failed: ${result.output.trim().split("\n", 1)[0]}`);
    }
    return Number(kilobytes) / 1024;
  };
  return { idleMb: await peak(1), after100Mb: await peak(RUNS_FOR_RSS) };
}

export function codemodeGoals(report: CodemodeReport): Goal[] {
  return [
    goal(
      "codemode: execute → first script instruction, median",
      report.firstInstructionMs,
      FIRST_INSTRUCTION_LIMIT_MS,
      "ms",
    ),
    goal(
      "codemode: peak RSS growth over 100 runs",
      report.rss.after100Mb - report.rss.idleMb,
      RSS_GROWTH_LIMIT_MB,
      "MB",
    ),
  ];
}

export function codemodeTable(report: CodemodeReport): Table {
  const row = (label: string, figures: LoopFigures) => [
    label,
    String(figures.requests),
    String(figures.tokensSent),
    fixed(figures.wallMs, 0),
  ];
  return {
    title: `codemode (chapter 16): ${FILES} file reads through the loop and the scripted model`,
    headers: ["way", "requests", "tokens sent (est.)", "wall ms"],
    rows: [row(`${FILES} direct read calls`, report.direct), row("one code script", report.script)],
    notes: [
      `fresh VM per run (median of ${report.runs}): worker start ${fixed(report.workerStartMs, 1)} ms + VM ${fixed(report.vmCreateMs, 1)} ms = ${fixed(report.firstInstructionMs, 1)} ms from execute to the first script instruction`,
      `peak RSS of a fresh node with the engine: ${fixed(report.rss.idleMb, 0)} MB after 1 run, ${fixed(report.rss.after100Mb, 0)} MB after ${RUNS_FOR_RSS} runs`,
      ...codemodeGoals(report).map((entry) =>
        goalText(entry.name, `${fixed(entry.value, 1)} ${entry.unit}`, `${entry.limit} ${entry.unit}`, entry.met),
      ),
    ],
  };
}
