// Lab 14.2 · 运行器: one run of one task. Everything is prepared fresh (a temp workspace from the
// fixture, the task's own model, the agent opened on them); the run ends with execute → dispose →
// cleanup in that order whatever failed; the judge sees only a frozen copy of the active path and
// the declared files, after the workspace is gone.
import { writeFile } from "node:fs/promises";
import type { Message } from "@pi/core";
import { countingModel } from "./counting-model.js";
import { frozenCopy } from "./frozen-copy.js";
import type {
  AgentRun,
  AgentUnderTest,
  CaseReport,
  EvalTask,
  Observation,
  Outcome,
  Phase,
  RunOptions,
  SecondaryOutcome,
} from "./types.js";
import { judgeRun } from "./verdict.js";
import { makeRunFolder, type RunFolder, readDeclared, removeRunFolder, writeFiles } from "./workspace.js";

const error = (phase: Phase): Outcome => ({ verdict: "error", phase });

export async function runCase(task: EvalTask, agent: AgentUnderTest, options: RunOptions = {}): Promise<CaseReport> {
  const now = options.now ?? (() => performance.now());
  const secondary: SecondaryOutcome[] = [];
  let outcome: Outcome | undefined;
  let folder: RunFolder | undefined;
  let run: AgentRun | undefined;
  let observation: Observation | undefined;
  let counts = () => ({ steps: 0, calls: 0, tokens: 0 });
  let ms = 0;

  // Lab 14.2 ① prepare: a new folder, the fixture, the task's fresh model (counted), the agent.
  try {
    folder = await makeRunFolder(options.tempDir);
    await writeFiles(folder.workspace, task.fixture);
    if (task.outside !== undefined) await writeFiles(folder.root, task.outside);
    const session = task.agent?.session?.(folder.workspace);
    if (session !== undefined) await writeFile(folder.sessionFile, session);
    const counted = countingModel(task.model());
    counts = counted.counts;
    run = await agent({
      workspace: folder.workspace,
      sessionFile: folder.sessionFile,
      model: counted.model,
      options: task.agent ?? {},
    });
  } catch {
    outcome = error("prepare");
  }

  // Lab 14.2 ② execute, then collect: two phases, so a report tells which one failed.
  if (outcome === undefined && run !== undefined && folder !== undefined) {
    const started = now();
    try {
      for (const prompt of task.prompts) await run.prompt(prompt);
    } catch {
      outcome = error("execute");
    }
    ms = now() - started;
    if (outcome === undefined) {
      try {
        const messages: Message[] = await run.activePath();
        observation = frozenCopy({ messages, files: await readDeclared(folder.workspace, task.declares) });
      } catch {
        outcome = error("collect");
      }
    }
  }

  // Lab 14.2 ③ dispose, then cleanup, each whatever happened before; their failures are
  // appended in order and never replace the primary outcome.
  if (run !== undefined) {
    try {
      await run.dispose();
    } catch {
      secondary.push({ phase: "dispose" });
    }
  }
  if (folder !== undefined) {
    try {
      await (options.removeFolder ?? removeRunFolder)(folder);
    } catch {
      secondary.push({ phase: "cleanup" });
    }
  }

  // Lab 14.2 ④ the verdict, from the frozen observation only.
  if (outcome === undefined && observation !== undefined) outcome = judgeRun(observation, task.judge);
  return { task: task.name, outcome: outcome ?? error("collect"), secondary, evidence: { ...counts(), ms } };
}
