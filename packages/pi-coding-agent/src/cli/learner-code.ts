// What tiny-pi can run from a practice directory, one row per chapter, and the loading of it:
// `--from DIR` takes every row whose chapter's teaching files are in DIR; `--loop DIR` and
// `--tools-from DIR` are the rows of chapters 07 and 08 alone. The manifest says, for a row's
// checkpoint, which teaching files it adds, which package holds them, how to build it and which
// focused tests prove it; the row says only what tiny-pi takes from that package.
//
// Chapter 05's row is the provider: it replaces the model only when --base-url names an endpoint,
// and the start line names it only when it is the learner's.
//
// Adding a chapter is one row: its checkpoint id, the label of the start line, the exports
// tiny-pi takes, the chapters whose code those exports run (their focused tests must pass as
// well), and `fill`, which puts the exports into LearnerCode; plus the field in host/run-config.ts's
// RunCode (LearnerCode extends it) that the host's composition (host/assemble-run.ts) hands to
// the code that uses it (chapter 11's row and `compaction` field are an example).
import type { openAICompatibleModel } from "@pi/ai";
import type { Agent, runAgentLoop } from "@pi/course";
import type { createCodeTool } from "../codemode/index.js";
import type { CompactionCode } from "../host/compaction-code.js";
import type { DurableCode } from "../host/durable-code.js";
import type { McpCode } from "../host/mcp-servers.js";
import type { ModelsCode } from "../host/model-switch.js";
import type { RuntimeCode13 } from "../host/open-run.js";
import type { ResourceCode } from "../host/resource-code.js";
import type { RunCode } from "../host/run-config.js";
import type { SessionCode } from "../host/session-code.js";
import type { ExposureCode } from "../host/tool-exposure.js";
import type { ToolFactory } from "../host/tool-selection.js";
import type { EngineFactory } from "../runtime/index.js";
import type { CliArgs } from "./args.js";
import { type LoadedPackage, loadPracticePackages, shownPath } from "./learner-tree.js";
import { learnerChapters } from "./practice-record.js";
import type { RuntimePart } from "./runtime-line.js";

export type RunAgentLoop = typeof runAgentLoop;
/** Chapter 16's export tiny-pi takes: the code tool (its sandbox, bridge and limits come with it). */
export type CodeToolFactory = typeof createCodeTool;
export type AgentClass = typeof Agent;
/** Chapter 05's export tiny-pi takes: the provider that talks to --base-url. */
export type ProviderCode = typeof openAICompatibleModel;

/**
 * The learner's code tiny-pi runs: every part the host composes a run of (host/run-config.ts's
 * RunCode), and the loop and Agent the engine drives (engineFor below); each field absent: the course's own.
 */
export interface LearnerCode extends RunCode {
  runAgentLoop?: RunAgentLoop;
  /** Chapter 09's Agent and the runAgentLoop it drives (its own package's). */
  agent?: { Agent: AgentClass; drives: RunAgentLoop };
}

/** Chapter 12's exports tiny-pi takes: every field of ResourceCode. */
const RUNTIME_EXPORTS = [
  "wireRuntime",
  "openRuntime",
  "agentEngine",
  "loopEngine",
  "runMode",
] as const satisfies readonly (keyof RuntimeCode13)[];

const RESOURCE_EXPORTS = [
  "resourceRoots",
  "discoverResources",
  "activateSkill",
  "renderTemplate",
  "splitTemplateArgs",
  "formatResourceContext",
  "loadExtensions",
  "hookedRegistry",
] as const satisfies readonly (keyof ResourceCode)[];

/** Chapter 18's exports tiny-pi takes: every field of ModelsCode. */
const MODELS_EXPORTS = [
  "parseModelsJson",
  "createModelCatalogue",
  "resolveRoute",
  "catalogueModel",
  "modelInForce",
  "thinkingLevelInForce",
  "modelChangeEntry",
  "thinkingLevelChangeEntry",
  "changeAfterTurn",
] as const satisfies readonly (keyof ModelsCode)[];

/** Chapter 19's exports tiny-pi takes: every field of DurableCode. */
const DURABLE_EXPORTS = [
  "DurableSessionStore",
  "DurableMemoryStore",
  "recoveryPlan",
  "isReplaySafe",
  "recordsOf",
  "continueTask",
] as const satisfies readonly (keyof DurableCode)[];

export interface CodeRow {
  /** The checkpoint (manifest id) whose teaching files hold this code. */
  checkpoint: string;
  /** The part of tiny-pi it replaces, as the start line names it. */
  label: string;
  /** What the start line names after whose it is; `tools` are the tool names of the run. */
  what(tools: readonly string[]): string;
  /** Exports of the checkpoint's package that tiny-pi takes; each must be a function (a class is one). */
  exports: readonly string[];
  /** Earlier checkpoints whose code these exports run in the same tree: their focused tests must pass too. */
  uses: readonly string[];
  fill(code: LearnerCode, module: Record<string, unknown>): void;
  /** Named on the start line only when it is the learner's, and said to be idle without an endpoint. */
  endpointOnly?: boolean;
  /** Named on the start line only when it is the learner's: a practice tree of an earlier chapter has none. */
  learnerOnly?: boolean;
}

export const CODE_ROWS: readonly CodeRow[] = [
  {
    checkpoint: "05",
    label: "provider",
    what: () => "openAICompatibleModel",
    exports: ["openAICompatibleModel"],
    uses: [],
    fill: (code, module) => {
      code.openAICompatibleModel = module.openAICompatibleModel as ProviderCode;
    },
    endpointOnly: true,
  },
  {
    checkpoint: "07",
    label: "loop",
    what: () => "runAgentLoop",
    exports: ["runAgentLoop"],
    // The loop executes every call with chapter 06's executeToolCall from the same tree.
    uses: ["06"],
    fill: (code, module) => {
      code.runAgentLoop = module.runAgentLoop as RunAgentLoop;
    },
  },
  {
    checkpoint: "08",
    label: "工具",
    what: (tools) => tools.join(","),
    exports: ["createWorkspaceTools"],
    uses: [],
    fill: (code, module) => {
      code.createWorkspaceTools = module.createWorkspaceTools as ToolFactory;
    },
  },
  {
    checkpoint: "09",
    label: "Agent",
    what: () => "Agent",
    exports: ["Agent", "runAgentLoop"],
    uses: ["07", "06"],
    fill: (code, module) => {
      code.agent = { Agent: module.Agent as AgentClass, drives: module.runAgentLoop as RunAgentLoop };
    },
  },
  {
    checkpoint: "10",
    label: "会话",
    what: () => "JsonlSessionStore",
    exports: ["JsonlSessionStore", "recoverSession", "pathTo", "interruptedResult"],
    uses: [],
    fill: (code, module) => {
      code.session = {
        JsonlSessionStore: module.JsonlSessionStore as SessionCode["JsonlSessionStore"],
        recoverSession: module.recoverSession as SessionCode["recoverSession"],
        pathTo: module.pathTo as SessionCode["pathTo"],
        interruptedResult: module.interruptedResult as SessionCode["interruptedResult"],
      };
    },
  },
  {
    checkpoint: "11",
    label: "压缩",
    what: () => "buildContext",
    exports: ["buildContext", "createCompactionEntry", "parseCompactionSummary"],
    // Compaction reads the entries and the aborted results of chapter 10's code in the same tree.
    uses: ["10"],
    fill: (code, module) => {
      code.compaction = {
        buildContext: module.buildContext as CompactionCode["buildContext"],
        createCompactionEntry: module.createCompactionEntry as CompactionCode["createCompactionEntry"],
        parseCompactionSummary: module.parseCompactionSummary as CompactionCode["parseCompactionSummary"],
      };
    },
  },
  {
    checkpoint: "12",
    label: "资源",
    what: () => "discoverResources",
    exports: RESOURCE_EXPORTS,
    // A skill reads its files through chapter 08's workspace boundary in the same tree.
    uses: ["08"],
    fill: (code, module) => {
      code.resources = Object.fromEntries(
        RESOURCE_EXPORTS.map((name) => [name, module[name]]),
      ) as unknown as ResourceCode;
    },
  },
  {
    checkpoint: "13",
    label: "Runtime",
    what: () => "openRuntime",
    exports: RUNTIME_EXPORTS,
    // The Runtime drives chapter 09's Agent, writes through chapter 10's store, builds each context
    // with chapter 11's buildContext and wires chapter 12's extensions, all from the same tree.
    uses: ["09", "10", "11", "12"],
    fill: (code, module) => {
      code.runtime = Object.fromEntries(
        RUNTIME_EXPORTS.map((name) => [name, module[name]]),
      ) as unknown as RuntimeCode13;
    },
  },
  {
    checkpoint: "15",
    label: "工具暴露",
    what: () => "ExposedRegistry、tool_search",
    exports: ["ExposedRegistry", "toolSearchTool"],
    // The registry extends chapter 06's ToolRegistry; chapter 13's Runtime records its changes.
    uses: ["06", "13"],
    learnerOnly: true,
    fill: (code, module) => {
      code.exposure = {
        ExposedRegistry: module.ExposedRegistry as ExposureCode["ExposedRegistry"],
        toolSearchTool: module.toolSearchTool as ExposureCode["toolSearchTool"],
      };
    },
  },
  {
    checkpoint: "16",
    label: "codemode",
    what: () => "createCodeTool",
    exports: ["createCodeTool"],
    // A script's nested calls go through chapter 06's executeToolCall; deferred tools come from chapter 15.
    uses: ["06", "15"],
    learnerOnly: true,
    fill: (code, module) => {
      code.createCodeTool = module.createCodeTool as CodeToolFactory;
    },
  },
  {
    checkpoint: "17",
    label: "MCP",
    what: () => "McpClient、StdioTransport、mcpTools",
    exports: ["McpClient", "StdioTransport", "mcpTools"],
    uses: [],
    learnerOnly: true,
    fill: (code, module) => {
      code.mcp = {
        McpClient: module.McpClient as McpCode["McpClient"],
        StdioTransport: module.StdioTransport as McpCode["StdioTransport"],
        mcpTools: module.mcpTools as McpCode["mcpTools"],
      };
    },
  },
  {
    checkpoint: "18",
    label: "模型",
    what: () => "目录与路由",
    exports: MODELS_EXPORTS,
    uses: [],
    learnerOnly: true,
    fill: (code, module) => {
      code.models = Object.fromEntries(MODELS_EXPORTS.map((name) => [name, module[name]])) as unknown as ModelsCode;
    },
  },
  {
    checkpoint: "19",
    label: "持久",
    what: () => "提交日志与恢复",
    exports: DURABLE_EXPORTS,
    // The durable store extends chapter 10's in-memory tree and reads its entries; the Runtime of
    // chapter 13's row in the same tree calls this tree's runtime-steps.ts at each step.
    uses: ["10", "13"],
    learnerOnly: true,
    fill: (code, module) => {
      code.durable = Object.fromEntries(DURABLE_EXPORTS.map((name) => [name, module[name]])) as unknown as DurableCode;
    },
  },
];

/** How the practice directory was named: `--from` takes every row present, the two older flags one row each. */
export type LearnerFlag = "--from" | "--loop" | "--tools-from";

const ROWS_OF_FLAG: Record<Exclude<LearnerFlag, "--from">, string> = { "--loop": "07", "--tools-from": "08" };

export interface LoadedCode {
  code: LearnerCode;
  /** The rows taken from the practice directory. */
  rows: CodeRow[];
}

/**
 * The learner's code of `dir` for `flag`, once every package it comes from is built from its
 * current sources and the focused tests of every chapter it runs pass; a RunError naming the
 * fix otherwise.
 */
export async function loadLearnerCode(dir: string, from: string, flag: LearnerFlag): Promise<LoadedCode> {
  const chosen = flag === "--from" ? CODE_ROWS : CODE_ROWS.filter((row) => row.checkpoint === ROWS_OF_FLAG[flag]);
  const loaded = await loadPracticePackages(dir, from, flag, {
    wanted: chosen.map((row) => row.checkpoint),
    // --from takes what the directory has; a named flag's one chapter must be there.
    presentOnly: flag === "--from",
    usesOf: (id) => CODE_ROWS.find((row) => row.checkpoint === id)?.uses ?? [],
  });
  const code: LearnerCode = {};
  const rows: CodeRow[] = [];
  for (const row of chosen) {
    const pkg = loaded.get(row.checkpoint);
    if (pkg === undefined) continue;
    row.fill(code, exportsOf(pkg, row));
    rows.push(row);
  }
  return { code, rows };
}

function exportsOf(pkg: LoadedPackage, row: CodeRow): Record<string, unknown> {
  for (const name of row.exports) pkg.requireFunction(name);
  return pkg.module;
}

/** A practice directory named on the command line, and the option that named it. */
export interface LearnerSource {
  dir: string;
  flag: LearnerFlag;
}

export interface LearnerRun {
  code: LearnerCode;
  /** Checkpoint of each row taken → the practice directory it came from, as shown. */
  dirs: Map<string, string>;
  /** Rows taken from a practice directory whose record says that chapter is the course's reference there. */
  reference: Set<string>;
}

/** The learner's code of every source, each checked in turn; nothing when no source is given. */
export async function loadLearnerRun(sources: readonly LearnerSource[], from: string): Promise<LearnerRun> {
  const run: LearnerRun = { code: {}, dirs: new Map(), reference: new Set() };
  for (const source of sources) {
    const loaded = await loadLearnerCode(source.dir, from, source.flag);
    Object.assign(run.code, loaded.code);
    const learner = learnerChapters(source.dir);
    for (const row of loaded.rows) {
      run.dirs.set(row.checkpoint, shownPath(source.dir, from));
      if (learner !== undefined && !learner.has(row.checkpoint)) run.reference.add(row.checkpoint);
      else run.reference.delete(row.checkpoint);
    }
  }
  return run;
}

/** The start line's parts: every row that runs, the learner's where a practice directory gave it. */
export function runtimeParts(
  run: LearnerRun,
  tools: readonly string[],
  endpoint: boolean,
  interactive: boolean,
): RuntimePart[] {
  return CODE_ROWS.flatMap((row) => {
    // One prompt drives the loop turn by turn (engineFor): no Agent runs, and the loop is the one
    // chapter 09's Agent would drive when the tree has no chapter 07 of its own.
    if (!interactive && row.checkpoint === "09") return [];
    const taken = !interactive && row.checkpoint === "07" && !run.dirs.has("07") ? "09" : row.checkpoint;
    const dir = run.dirs.get(taken);
    if ((row.endpointOnly || row.learnerOnly) && dir === undefined) return [];
    const idle = row.endpointOnly && !endpoint ? IDLE_WITHOUT_ENDPOINT : "";
    const whose = dir === undefined ? {} : run.reference.has(taken) ? { dir, reference: true as const } : { dir };
    return [{ label: row.label, chapter: row.checkpoint, what: `${row.what(tools)}${idle}`, ...whose }];
  });
}

const IDLE_WITHOUT_ENDPOINT = "（没有 --base-url：这一次回答的是内置脚本模型）";

/** The practice directories the command line names: --from, or --loop and --tools-from. */
export function learnerSources(args: Pick<CliArgs, "fromDir" | "loopDir" | "toolsFromDir">): LearnerSource[] {
  const sources: LearnerSource[] = [];
  if (args.fromDir !== undefined) sources.push({ dir: args.fromDir, flag: "--from" });
  if (args.loopDir !== undefined) sources.push({ dir: args.loopDir, flag: "--loop" });
  if (args.toolsFromDir !== undefined) sources.push({ dir: args.toolsFromDir, flag: "--tools-from" });
  return sources;
}

/**
 * What the Runtime drives. In the REPL: the learner's Agent, or a learner's loop no Agent of
 * theirs drives (turn by turn), or the course's Agent. One prompt (no REPL) runs the loop turn by
 * turn, as it did before the Runtime: no retries, so a failure is one line at once.
 */
export interface EngineChoice {
  factory: (code: RuntimeCode13) => EngineFactory;
  /** Whether a line typed mid-turn is steered into it (an Agent), or waits for the next turn (a loop). */
  steers: boolean;
  /** Whose loop it is, for the one line a loop that breaks its contract gives. */
  source: string;
}

export function engineFor(run: LearnerRun, interactive: boolean): EngineChoice {
  const loopDir = run.dirs.get("07") ?? run.dirs.get("09");
  const source = loopDir !== undefined ? `${loopDir} 里` : "课程";
  const { agent } = run.code;
  const loop = run.code.runAgentLoop ?? agent?.drives;
  if (!interactive) return { factory: (code) => code.loopEngine(loop), steers: false, source };
  if (agent !== undefined) return { factory: (code) => code.agentEngine(agent.Agent), steers: true, source };
  if (loop !== undefined) return { factory: (code) => code.loopEngine(loop), steers: false, source };
  return { factory: (code) => code.agentEngine(), steers: true, source };
}
