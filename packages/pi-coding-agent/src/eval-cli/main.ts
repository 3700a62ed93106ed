#!/usr/bin/env node
// `npm run eval`: the practice suite, then the held-out suite, on the course's agent or (--from)
// the learner's, offline with each task's policy model or against a real model. The table (or
// --json) reports counts and verdicts only. Every run's folder lives in one temp folder of this
// process, removed at the end and on SIGINT/SIGTERM, so nothing is left behind. On a signal the
// processes the running task started go first (they write into that folder), then the folder.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CaseReport, EvalTask, SuiteSummary } from "../eval/index.js";
import { EXIT_FAILED_RUN, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, RunError, UsageError } from "../host/errors.js";
import { guardThisProcess } from "../process/parent-watchdog.js";
import { EVAL_USAGE, type EvalArgs, parseEvalArgs } from "./args.js";
import { HELD_OUT_TASKS } from "./held-out.js";
import { loadSuiteCode, whoseSuite } from "./suite-code.js";
import { ratesTable, runsTable, verdictLabel } from "./table.js";

interface PartReport {
  reports: CaseReport[];
  summary: SuiteSummary;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseEvalArgs(argv);
  if (args.help) {
    process.stdout.write(`${EVAL_USAGE}\n`);
    return EXIT_OK;
  }
  const cwd = env.INIT_CWD ?? process.cwd();
  const code = await loadSuiteCode(args.from, cwd);
  const parts = { practice: select(code.PRACTICE_TASKS, args), heldOut: select(HELD_OUT_TASKS, args) };
  const unknown = args.only.filter(
    (name) => ![...code.PRACTICE_TASKS, ...HELD_OUT_TASKS].some((task) => task.name === name),
  );
  if (unknown.length > 0) throw new UsageError(`没有名为 ${unknown.join("、")} 的任务：去掉 --only 看全部任务的名字。`);
  const model = await realModel(args);

  const guard = guardThisProcess();
  const tempDir = mkdtempSync(path.join(os.tmpdir(), "pi-eval-"));
  // A write of this process's own tools may still be in flight: rmSync retries a folder that
  // filled again while it emptied it.
  const removeTemp = () => rmSync(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    void guard.sweep().then(async () => {
      // The suite's own async steps run on while the watchdog sweeps: an I/O call already under
      // way may land after a removal, so the folder is removed again until it stays gone.
      let failure: unknown;
      for (let attempt = 0; attempt < 3 && existsSync(tempDir); attempt += 1) {
        try {
          removeTemp();
          failure = undefined;
        } catch (error) {
          failure = error;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (existsSync(tempDir)) {
        const reason = failure instanceof Error ? `（${failure.message.split("\n")[0]}）` : "";
        process.stderr.write(`没能删除临时目录 ${tempDir}${reason}：请手动删除。\n`);
      }
      process.exit(EXIT_INTERRUPTED);
    });
  };
  process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
  const progress = (report: CaseReport) => {
    if (!args.json) process.stderr.write(`  ${report.task}：${verdictLabel(report.outcome)}\n`);
  };
  const run = async (tasks: EvalTask[]): Promise<PartReport> => {
    const reports = await code.runSuite(
      model === undefined ? tasks : tasks.map((task) => ({ ...task, model })),
      code.runtimeAgent,
      {
        repeat: args.repeat,
        tempDir,
        onReport: progress,
      },
    );
    return { reports, summary: code.summarise(reports) };
  };
  let practice: PartReport;
  let heldOut: PartReport;
  try {
    practice = await run(parts.practice);
    heldOut = await run(parts.heldOut);
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    removeTemp();
  }

  const everyPass = [...practice.reports, ...heldOut.reports].every((report) => report.outcome.verdict === "pass");
  const agent = args.from === undefined ? "reference" : args.from;
  const modelName = args.endpoint?.model ?? "offline";
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ agent, model: modelName, repeat: args.repeat, practice, heldOut, everyPass }, null, 2)}\n`,
    );
  } else {
    const table = (part: PartReport) =>
      model === undefined && args.repeat === 1 ? runsTable(part.reports) : ratesTable(part.summary, args.repeat);
    // A part with no task (--only picked from the other one) prints no empty table.
    const sections = [
      parts.practice.length === 0 ? "" : `练习部分（${parts.practice.length} 个任务）\n${table(practice)}\n\n`,
      parts.heldOut.length === 0
        ? ""
        : `留出部分（${parts.heldOut.length} 个任务，不在任何练习目录里）\n${table(heldOut)}\n\n`,
    ];
    process.stdout.write(
      `评测：${whoseSuite(args.from, cwd)}，模型：${model === undefined ? "离线策略模型" : modelName}\n\n` +
        sections.join("") +
        `${everyPass ? "全部通过" : "有任务没有通过"}\n`,
    );
  }
  if (model !== undefined) return EXIT_OK;
  return everyPass ? EXIT_OK : EXIT_FAILED_RUN;
}

function select(tasks: readonly EvalTask[], args: EvalArgs): EvalTask[] {
  return args.only.length === 0 ? [...tasks] : tasks.filter((task) => args.only.includes(task.name));
}

/** A factory of the real model for every run, or undefined offline. Loaded only when named. */
async function realModel(args: EvalArgs): Promise<EvalTask["model"] | undefined> {
  if (args.endpoint === undefined) return undefined;
  const { openAICompatibleModel } = await import("@pi/ai");
  const { baseURL, model, apiKey } = args.endpoint;
  const key = apiKey ?? process.env.OPENAI_API_KEY ?? "none";
  return () => openAICompatibleModel({ baseURL, model, apiKey: key });
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof RunError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${known ? message : `评测出错：${message.split("\n")[0]}`}\n`);
    process.exitCode = error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED_RUN;
  },
);
