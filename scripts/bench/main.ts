// `npm run bench`: the loop's overhead against the bare stream, the learner's edit→result time,
// practice set-up, chapter 08's tools on large inputs and the provider's cost per chunk, one table
// each (or one JSON document with --json). A program, not a test.
import { parseArgs } from "node:util";
import { runCli, UsageError } from "../lib/usage-error.js";
import { type CodemodeReport, codemodeGoals, codemodeTable, measureCodemode } from "./codemode.js";
import { type CompactionReport, compactionGoals, compactionTable, measureCompaction } from "./compaction.js";
import { type CourseSuiteReport, measureCourseSuite } from "./course-suite.js";
import { type DurableReport, durableTable, measureDurable } from "./durable.js";
import { type ExposureReport, exposureGoals, exposureTable, measureExposure } from "./exposure.js";
import { courseGoals, type Goal, innerLoopGoals, loopGoals, providerGoals, setupGoals, toolsGoals } from "./goals.js";
import { type InnerLoopReport, measureInnerLoop } from "./inner-loop.js";
import { type LoopOverheadPlan, type LoopOverheadReport, measureLoopOverhead } from "./loop-overhead.js";
import { describeMachine, machineLine } from "./machine.js";
import { type McpReport, mcpGoals, mcpTable, measureMcp } from "./mcp.js";
import { type ModelsPlan, type ModelsReport, measureModels, modelsGoals, modelsTable } from "./models.js";
import { measurePracticeSetup, type PracticeSetupReport } from "./practice-setup.js";
import { measureProviderOverhead, type ProviderPlan, type ProviderReport } from "./provider-overhead.js";
import { measureRunPage, type PageReport, pageGoals, pageTable } from "./run-view.js";
import { measureSessionTree, type SessionReport, sessionGoals, sessionTable } from "./session-tree.js";
import { renderTable } from "./table.js";
import {
  courseSuiteTable,
  innerLoopTable,
  loopOverheadTable,
  practiceSetupTable,
  providerTable,
  toolsTable,
} from "./tables.js";
import { measureWorkspaceTools, type ToolsReport } from "./workspace-tools.js";

const PARTS = [
  "loop",
  "inner",
  "setup",
  "tools",
  "provider",
  "session",
  "compaction",
  "page",
  "course",
  "prove",
  "exposure",
  "codemode",
  "mcp",
  "models",
  "durable",
] as const;
type Part = (typeof PARTS)[number];

const USAGE = `Usage: npm run bench -- [--quick] [--json] [--only loop,inner,setup,tools,provider,session,compaction,page,course,prove,exposure,codemode,mcp,models,durable]

  loop      runAgentLoop and the Agent against a bare for-await over the same model streams, µs per step
  inner     npm run build -w @pi/course + the nine focused tests in a practice directory
  setup     npm run practice -w @pi/course -- <id> <dir> for every checkpoint: wall time and size
  tools     read of a 1 GiB file, edit of a 10 MB file, bash with 1 GiB of output and its abort
  provider  one 10,000-chunk stream from a 127.0.0.1 server: @pi/ai against the raw openai SDK
            stream and upstream Pi's provider (installed under the temp folder), µs per chunk
  session   one 100,000-entry session (≈ 50 MB, 20 branches): open + project a branch, 1,000 appends,
            and upstream Pi's SessionManager opening the same file (installed under the temp folder)
  compaction  one 100,000-entry branch with 10 compactions on its path: buildContext, the token estimate's
            MB/s, and upstream Pi's buildSessionContext on the same file (the session part's install)
  page      the run page: the concurrent demo's --html size, a 10,000-entry session (21 branches) through
            tiny-pi export and rendered in headless Chromium (the system's), and upstream Pi's --export of it
  course    the static checks of every checkpoint and the test files each adds, run alone: npm test's
            share of each chapter, wall and CPU seconds; then the rest of npm test, the files no
            checkpoint's target holds, as npm test runs them (about three minutes)
  prove     course, and each checkpoint's integrity checks alone (checkpoint <id> --prove, npm run
            test:course's share): the cost of one more chapter (about 20 minutes)

  exposure  chapter 15: tool schemas of 100 extension tools all direct vs deferred behind tool_search, tool_search
            over 1,000 tools (median per query), the declared set of a 100,000-entry branch with 1,000 tool states
  codemode  a fresh sandbox VM per run (execute → first script instruction, split: worker start and VM),
            one script reading 20 files against 20 direct calls through the loop (requests, tokens, wall),
            and the peak RSS of a node running the engine, after 1 run and after 100
  mcp       the MCP client over stdio: start + initialize + tools/list of server-memory and of the fixture
            server with 1,000 tools in 10 pages, the median tools/call round trip, close → process gone
  durable   chapter 19: one commit's latency (median, p99) with and without fsync; recovery of a
            100,000-entry session with 1,000 open intents (open + plan)

  models    chapter 18: what a request costs behind a virtual model's route over straight on the model, as a
            share of chapter 07's loop step; the model in force on a 100,000-entry branch

  --quick  fewer rounds and runs (a smoke run; the figures are noisier)
  --json   print one JSON document instead of the tables
  --only   run only the named parts, comma-separated
  --help   print this help`;

interface Plan {
  loop: LoopOverheadPlan;
  codemodeRuns: number;
  innerRuns: number;
  setupRuns: number;
  toolsRuns: number;
  provider: ProviderPlan;
  models: ModelsPlan;
}

const FULL: Plan = {
  loop: { steps: [100, 1000, 5000], calls: [1, 4], rounds: 21, warmupRuns: 3, stepsPerSample: 10_000 },
  codemodeRuns: 31,
  innerRuns: 7,
  setupRuns: 5,
  toolsRuns: 3,
  provider: { rounds: 15, warmupRuns: 3 },
  models: { steps: 1000, requests: 20_000, rounds: 21 },
};
const QUICK: Plan = {
  loop: { ...FULL.loop, rounds: 3, warmupRuns: 1, stepsPerSample: 2_000 },
  codemodeRuns: 7,
  innerRuns: 2,
  setupRuns: 2,
  toolsRuns: 1,
  provider: { rounds: 3, warmupRuns: 1 },
  models: { steps: 1000, requests: 5_000, rounds: 5 },
};

function parseParts(value: string | undefined): Part[] {
  if (value === undefined) return [...PARTS];
  const names = value.split(",").map((name) => name.trim());
  for (const name of names) {
    if (!(PARTS as readonly string[]).includes(name)) {
      throw new UsageError(`bench: unknown part "${name}"; use --only with ${PARTS.join(", ")}`);
    }
  }
  return names as Part[];
}

const OPTIONS = {
  json: { type: "boolean" },
  quick: { type: "boolean" },
  only: { type: "string" },
  help: { type: "boolean" },
} as const;

function readOptions(): { json: boolean; plan: Plan; parts: Part[] } | undefined {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: false });
  } catch (error) {
    throw new UsageError(`bench: ${(error as Error).message.split("\n")[0]}; see npm run bench -- --help`);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return undefined;
  }
  return {
    json: parsed.values.json ?? false,
    plan: parsed.values.quick ? QUICK : FULL,
    parts: parseParts(parsed.values.only),
  };
}

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

async function main(): Promise<void> {
  const options = readOptions();
  if (options === undefined) return;
  const { plan, parts } = options;
  const machine = describeMachine();
  const started = performance.now();

  let loopOverhead: LoopOverheadReport | undefined;
  let innerLoop: InnerLoopReport | undefined;
  let practiceSetup: PracticeSetupReport | undefined;
  let courseSuite: CourseSuiteReport | undefined;
  let tools: ToolsReport | undefined;
  let provider: ProviderReport | undefined;
  let session: SessionReport | undefined;
  let compaction: CompactionReport | undefined;
  let page: PageReport | undefined;
  let exposure: ExposureReport | undefined;
  let codemode: CodemodeReport | undefined;
  let mcp: McpReport | undefined;
  let models: ModelsReport | undefined;
  let durable: DurableReport | undefined;
  if (parts.includes("loop")) {
    progress("loop overhead…");
    loopOverhead = await measureLoopOverhead(plan.loop);
  }
  if (parts.includes("inner")) {
    progress("learner inner loop…");
    innerLoop = await measureInnerLoop(plan.innerRuns);
  }
  if (parts.includes("setup")) {
    progress("practice set-up…");
    practiceSetup = await measurePracticeSetup(plan.setupRuns);
  }
  if (parts.includes("course") || parts.includes("prove")) {
    const withProve = parts.includes("prove");
    progress(`course: static checks, each checkpoint's test files${withProve ? ", then --prove for each" : ""}`);
    courseSuite = await measureCourseSuite(plan.setupRuns, withProve);
  }
  if (parts.includes("tools")) {
    progress("workspace tools…");
    tools = await measureWorkspaceTools(plan.toolsRuns);
  }
  if (parts.includes("provider")) {
    progress("provider…");
    provider = await measureProviderOverhead(plan.provider, progress);
  }
  if (parts.includes("session")) {
    progress("session tree…");
    session = await measureSessionTree(progress);
  }
  if (parts.includes("compaction")) {
    progress("compaction…");
    compaction = await measureCompaction(progress);
  }
  if (parts.includes("page")) {
    progress("run page…");
    page = await measureRunPage(progress);
  }
  if (parts.includes("exposure")) {
    progress("tool exposure…");
    exposure = await measureExposure(progress);
  }
  if (parts.includes("codemode")) {
    progress("codemode…");
    codemode = await measureCodemode(plan.codemodeRuns);
  }
  if (parts.includes("mcp")) {
    progress("MCP client…");
    mcp = await measureMcp(plan.toolsRuns * 3);
  }
  if (parts.includes("models")) {
    progress("virtual models…");
    models = await measureModels(plan.models);
  }
  if (parts.includes("durable")) {
    progress("durable execution…");
    durable = await measureDurable();
  }
  const seconds = (performance.now() - started) / 1000;

  const goals: Goal[] = [
    ...(loopOverhead ? loopGoals(loopOverhead) : []),
    ...(innerLoop ? innerLoopGoals(innerLoop) : []),
    ...(practiceSetup ? setupGoals(practiceSetup) : []),
    ...(courseSuite ? courseGoals(courseSuite) : []),
    ...(tools ? toolsGoals(tools) : []),
    ...(provider ? providerGoals(provider) : []),
    ...(session ? sessionGoals(session) : []),
    ...(compaction ? compactionGoals(compaction) : []),
    ...(page ? pageGoals(page) : []),
    ...(exposure ? exposureGoals(exposure) : []),
    ...(codemode ? codemodeGoals(codemode) : []),
    ...(mcp ? mcpGoals(mcp) : []),
    ...(models ? modelsGoals(models) : []),
  ];
  if (options.json) {
    console.log(
      JSON.stringify(
        {
          machine,
          seconds,
          loopOverhead,
          innerLoop,
          practiceSetup,
          courseSuite,
          tools,
          provider,
          session,
          compaction,
          page,
          exposure,
          codemode,
          mcp,
          models,
          durable,
          goals,
        },
        null,
        2,
      ),
    );
    return;
  }
  const tables = [
    loopOverhead && loopOverheadTable(loopOverhead),
    innerLoop && innerLoopTable(innerLoop),
    practiceSetup && practiceSetupTable(practiceSetup),
    courseSuite && courseSuiteTable(courseSuite),
    tools && toolsTable(tools),
    provider && providerTable(provider),
    session && sessionTable(session),
    compaction && compactionTable(compaction),
    page && pageTable(page),
    exposure && exposureTable(exposure),
    codemode && codemodeTable(codemode),
    mcp && mcpTable(mcp),
    models && modelsTable(models),
    durable && durableTable(durable),
  ].filter((table) => table !== undefined);
  console.log(machineLine(machine));
  for (const table of tables) console.log(`\n${renderTable(table)}`);
  console.log(`\n${goals.filter((entry) => entry.met).length}/${goals.length} goals met in ${seconds.toFixed(1)} s`);
}

await runCli(main);
