// A run without the REPL: one prompt, shown in the chosen mode (the human view, -p's final text,
// JSON lines), then the failure line if the turn did not stop, where the session is, and the exit code.
import type { AgentRunResult } from "@pi/course";
import { windowLine } from "../host/context-window.js";
import { ModelRecord } from "../host/model-record.js";
import type { Runtime } from "../runtime/index.js";
import { exitCodeOf, failureLine, promptFailure } from "./run-outcome.js";
import { runtimeLine } from "./runtime-line.js";
import type { StartedRun } from "./started-run.js";

export async function runOnce(started: StartedRun, prompt: string): Promise<number> {
  const { assembled, notes, interrupts, present, saving } = started;
  // Named only when a learner's code is in use, so a failure stays one line.
  if (started.learner.dirs.size > 0) notes.write(`${runtimeLine({ parts: started.parts })}\n`);
  if (assembled.window !== undefined) notes.write(`${windowLine(assembled.window)}\n`);
  const record = new ModelRecord(assembled.run.runtime, assembled.choice.models);
  const { runtime } = record;
  const unsubscribe = runtime.subscribe(present.onEvent);
  interrupts.beginTurn(() => runtime.abort());
  const { pendingTask } = assembled;
  const result =
    pendingTask !== undefined
      ? await resumeOnce(started, record, pendingTask)
      : await promptOnce(started, runtime, prompt);
  interrupts.endTurn();
  unsubscribe();
  started.endSetup();
  const line = failureLine(result, started.outcome);
  if (line !== undefined) notes.write(`${line}\n`);
  await saving.end(runtime);
  return exitCodeOf(result);
}

/**
 * The one prompt: the human view's (text), or chapter 13's print or JSON mode. A prompt the
 * Runtime refused after a failed write has been told already: its turn ended as the last turn_end said.
 */
async function promptOnce(started: StartedRun, runtime: Runtime, prompt: string): Promise<AgentRunResult> {
  const { invocation, present } = started;
  try {
    if (invocation.mode === "text") return await runtime.prompt(prompt);
    const result = await started.assembled.run.runMode(invocation.mode, runtime, {
      output: present.output,
      prompts: [prompt],
    });
    return result ?? { reason: "stop", messages: [], steps: 0 };
  } catch (error) {
    if (started.saving.toldFailure(runtime, error)) {
      return { reason: present.lastReason() ?? "error", messages: [], steps: 0 };
    }
    throw promptFailure(error, started.engine.source);
  }
}

/** Chapter 19: the task a crash left unfinished goes on; a refusal after a failed write has been told already. */
async function resumeOnce(started: StartedRun, record: ModelRecord, task: string): Promise<AgentRunResult> {
  try {
    // The durable code of the tree whose openRuntime opened the Runtime (the course's, or --from practice/19).
    const durable = started.assembled.session.durable;
    if (durable === undefined) throw new Error("a pending task without a durable session");
    return await record.goOn((runtime) => durable.continueTask(runtime, task));
  } catch (error) {
    if (started.saving.toldFailure(record.runtime, error)) return { reason: "error", messages: [], steps: 0 };
    throw error;
  }
}
