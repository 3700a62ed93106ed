// The five parts' reports as terminal tables.

import type { Variant } from "./bench-runs.js";
import type { CourseSuiteReport } from "./course-suite.js";
import { courseGoals, type Goal, innerLoopGoals, loopGoals, providerGoals, setupGoals, toolsGoals } from "./goals.js";
import type { InnerLoopReport } from "./inner-loop.js";
import type { LoopOverheadReport, LoopOverheadRow } from "./loop-overhead.js";
import { PI_AI_INSTALL, PI_AI_PACKAGE } from "./pi-upstream.js";
import type { PracticeSetupReport } from "./practice-setup.js";
import type { ProviderReport, ProviderVariant } from "./provider-overhead.js";
import type { Summary } from "./stats.js";
import { fixed, goalText, type Table } from "./table.js";
import type { ToolsReport } from "./workspace-tools.js";

/** Median with the interquartile range, e.g. `6.21 (5.90–6.80)`. */
function spread(summary: Summary, digits = 2): string {
  return `${fixed(summary.median, digits)} (${fixed(summary.p25, digits)}–${fixed(summary.p75, digits)})`;
}

function goalNotes(goals: Goal[]): string[] {
  return goals.map((entry) =>
    goalText(
      entry.name,
      `${fixed(entry.value, entry.unit === "bytes" ? 0 : 2)} ${entry.unit}`,
      `${entry.limit} ${entry.unit}`,
      entry.met,
    ),
  );
}

export function loopOverheadTable(report: LoopOverheadReport): Table {
  const largest = Math.max(...report.plan.steps);
  const smallest = Math.min(...report.plan.steps);
  const window = (row: LoopOverheadRow, variant: Variant, pick: "median" | "mean") => {
    if (row.steps !== largest) return "";
    const ratio = pick === "median" ? row.lateOverEarly[variant] : row.lateOverEarlyMean[variant];
    return `${fixed(row.early[variant][pick])}→${fixed(row.late[variant][pick])} (${fixed(ratio)})`;
  };
  return {
    title: `Loop overhead: µs per step, median (IQR) of ${report.plan.rounds} interleaved rounds`,
    headers: [
      "K",
      "S",
      "bare",
      "loop",
      "loop÷bare",
      "injected÷bare",
      "agent",
      "agent÷loop",
      `loop S÷S=${smallest}`,
      `bare S÷S=${smallest}`,
      "loop early→late step",
      "loop early→late mean",
      "bare early→late step",
    ],
    rows: report.rows.map((row) => [
      String(row.calls),
      String(row.steps),
      spread(row.perStep.bare),
      spread(row.perStep.loop),
      fixed(row.ratio.loop),
      fixed(row.ratio.injected),
      spread(row.perStep.agent),
      fixed(row.agentOverLoop),
      fixed(row.scaling.loop),
      fixed(row.scaling.bare),
      window(row, "loop", "median"),
      window(row, "loop", "mean"),
      window(row, "bare", "median"),
    ]),
    notes: [
      "bare: for await over the same streams, appending the assistant and K ready-made results",
      "loop: runAgentLoop, no-op tool run by chapter 06's executeToolCall; injected: same loop, executeToolCall injected",
      "agent: chapter 09's Agent, one prompt on a fresh Agent with the loop's registry; agent÷loop: ratio to loop in the same round (median)",
      `÷bare: ratio to bare in the same round (median); S÷S=${smallest}: per-step cost at S ÷ at S=${smallest}`,
      `early→late (S=${largest}): first vs last 10% of steps, µs (late÷early); step = median step, mean = incl. GC pauses`,
      ...goalNotes(loopGoals(report)),
    ],
  };
}

export function innerLoopTable(report: InnerLoopReport): Table {
  return {
    title: `Learner inner loop in a practice directory with the target dropped in: ms, median (IQR) of ${report.runs} runs`,
    headers: ["command", "ms"],
    rows: [
      ["npm run build -w @pi/course (first build, cold)", fixed(report.coldBuildMs, 0)],
      ["npm run build -w @pi/course (after touching agent-loop.ts)", spread(report.touchBuildMs, 0)],
      ["npm run build -w @pi/course (after editing agent-loop.ts)", spread(report.buildMs, 0)],
      ["  the same without npm (node …/typescript/bin/tsc -b in packages/pi-course)", spread(report.tscOnlyMs, 0)],
      [`node --test packages/pi-course/dist/test/07-*.test.js (${report.passed} pass)`, spread(report.testMs, 0)],
      ["build after an edit + focused tests", fixed(report.totalMs, 0)],
    ],
    notes: goalNotes(innerLoopGoals(report)),
  };
}

export function practiceSetupTable(report: PracticeSetupReport): Table {
  return {
    title: `Practice set-up: median (IQR) of ${report.runs} runs`,
    headers: ["npm run practice -w @pi/course -- <id> <dir>", "ms", "bytes (links not counted)", "files / links"],
    rows: report.checkpoints.map((setup) => [
      setup.id,
      spread(setup.ms, 0),
      String(setup.size.bytes),
      `${setup.size.files} / ${setup.size.links}`,
    ]),
    notes: goalNotes(setupGoals(report)),
  };
}

export function courseSuiteTable(report: CourseSuiteReport): Table {
  const cpu = (ms: number | undefined) => (ms === undefined ? "–" : fixed(ms, 0));
  const shares = report.checkpoints.map((checkpoint) => checkpoint.npmTest);
  const lastFive = shares.slice(-5);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const cpuOf = (list: typeof shares) =>
    list.some((share) => share.cpuMs === undefined) ? undefined : mean(list.map((share) => share.cpuMs ?? 0));
  return {
    title: "The course's own checks, per checkpoint",
    headers: ["measure", "ms", "CPU ms"],
    rows: [
      [
        `static checks of all ${report.checkpoints.length} checkpoints (npm test, --check), median (IQR)`,
        spread(report.staticMs, 0),
        "",
      ],
      ...report.checkpoints.flatMap((checkpoint) => [
        [
          `checkpoint ${checkpoint.id}: its ${checkpoint.npmTest.files} test file(s) in npm test, alone${checkpoint.npmTest.passed ? "" : " (FAILED)"}`,
          fixed(checkpoint.npmTest.ms, 0),
          cpu(checkpoint.npmTest.cpuMs),
        ],
        ...(checkpoint.prove
          ? [
              [
                `checkpoint ${checkpoint.id} --prove alone${checkpoint.prove.passed ? "" : " (FAILED)"}`,
                fixed(checkpoint.prove.ms, 0),
                "",
              ],
            ]
          : []),
      ]),
      [
        `mean per checkpoint in npm test, all ${shares.length}`,
        fixed(mean(shares.map((share) => share.ms)), 0),
        cpu(cpuOf(shares)),
      ],
      [
        `mean per checkpoint in npm test, the last ${lastFive.length}`,
        fixed(mean(lastFive.map((share) => share.ms)), 0),
        cpu(cpuOf(lastFive)),
      ],
      [
        `the rest of npm test: its ${report.rest.files} file(s) in no checkpoint's target, together${report.rest.passed ? "" : " (FAILED)"}`,
        fixed(report.rest.ms, 0),
        cpu(report.rest.cpuMs),
      ],
    ],
    notes: goalNotes(courseGoals(report)),
  };
}

export function toolsTable(report: ToolsReport): Table {
  const mib = (summary: Summary) => spread(summary, 1);
  return {
    title: `Workspace tools on large inputs: median (IQR) of ${report.runs} runs (edit: ${report.edit.ms.samples})`,
    headers: ["measure", "ms", "peak RSS, MiB"],
    rows: [
      ["node importing the tools (baseline)", "", mib(report.baselineMiB)],
      ["read: last 10 lines of a 1 GiB sparse file", spread(report.read.ms, 0), mib(report.read.peakMiB)],
      [`edit: one line of a ${fixed(report.edit.fileBytes / 1e6, 1)} MB file`, spread(report.edit.ms, 1), ""],
      [
        "bash: yes | head -c 1G (tail kept, full output to a temp file)",
        spread(report.bash.ms, 0),
        mib(report.bash.peakMiB),
      ],
      ["bash: abort() → the call settles (yes, 200 ms in)", spread(report.bash.abortToExitMs, 0), ""],
    ],
    notes: [
      "read and bash each run in a fresh node; peak RSS is its process.resourceUsage().maxRSS",
      ...goalNotes(toolsGoals(report)),
    ],
  };
}

export function providerTable(report: ProviderReport): Table {
  const row = (label: string, variant: ProviderVariant): string[] => {
    const cpu = report.cpuPerChunk[variant];
    const wall = report.wallPerChunk[variant];
    const ratio = report.ratio[variant];
    if (cpu === undefined || wall === undefined || ratio === undefined) return [label, "", "", ""];
    return [label, spread(cpu), fixed(ratio), spread(wall)];
  };
  const pi = report.pi;
  const rows = [
    row("raw openai SDK stream, chunks read with no mapping", "raw"),
    row("@pi/ai openAICompatibleModel, events and the assistant", "ours"),
    pi.installed
      ? row(`upstream Pi openai-completions (${PI_AI_PACKAGE}@${pi.version})`, "pi")
      : [`upstream Pi openai-completions: not installed (${pi.reason})`, "", "", ""],
  ];
  return {
    title: `Provider: µs per chunk of one ${report.chunks.toLocaleString("en-US")}-chunk stream through a 127.0.0.1 server, median (IQR) of ${report.plan.rounds} rounds`,
    headers: ["reader", "CPU µs per chunk", "÷raw", "wall µs per chunk"],
    rows,
    notes: [
      "CPU: user + system time of this process; ÷raw: median of the CPU ratios measured in the same round",
      "raw and @pi/ai run first; Pi is loaded afterwards and its ÷raw is against raw runs interleaved with it",
      "every reader parses the same bytes with the SDK's SSE decoder; wall time also counts other processes' turns",
      ...(pi.installed ? [] : [`to compare with Pi: ${PI_AI_INSTALL}`]),
      ...goalNotes(providerGoals(report)),
    ],
  };
}
