// One tiny-pi run: the learner's code loaded (learner-code.ts), the run composed from its
// configuration on the host's side (host/prepare-run.ts, host/assemble-run.ts: the models, the
// resources, the session, the tools, MCP and chapter 13's Runtime), then presented: one prompt in
// the chosen mode (run-once.ts) or the REPL (repl-run.ts). Nothing here persists, builds a context
// or runs an extension: that is the Runtime's side.
import { assembleRun } from "../host/assemble-run.js";
import { EXIT_INTERRUPTED, UsageError } from "../host/errors.js";
import { prepareRun } from "../host/prepare-run.js";
import { embeddedModelNotice, readmeQuestion, readmeRoundTripModel } from "./embedded-model.js";
import { Interrupts, SIGNAL_SAME_PRESS_MS } from "./interrupts.js";
import type { RunInvocation } from "./invocation.js";
import { engineFor, learnerSources, loadLearnerRun, runtimeParts } from "./learner-code.js";
import { guardChildren, leave } from "./leave.js";
import { fallbackLine, modelLines } from "./model-lines.js";
import { presentation } from "./presentation.js";
import { replRun } from "./repl-run.js";
import { runOnce } from "./run-once.js";
import { sessionReport } from "./session-report.js";
import type { StartedRun } from "./started-run.js";
import { terminalQuestions } from "./terminal-questions.js";

/** Runs tiny-pi as `invocation` says; `from`: the folder the command was run from. Resolves with the exit code. */
export async function runTinyPi(invocation: RunInvocation, from: string): Promise<number> {
  const { config, interactive } = invocation;
  guardChildren();
  const interrupts = new Interrupts(interactive ? 0 : SIGNAL_SAME_PRESS_MS);
  // Setting up may run a learner's focused tests: Ctrl-C then simply exits (their run is stopped with us).
  const onSignal = () => {
    if (interrupts.press(true) === "exit") leave(EXIT_INTERRUPTED);
    else process.stderr.write("\n（正在中止这一轮；再按一次 Ctrl-C 退出）\n");
  };
  process.on("SIGINT", onSignal);
  // --from / --loop / --tools-from, the catalogue, the resources and a one-shot /template or /skill:
  // each checked before the session is opened, so a refusal touches no session file.
  const learner = await loadLearnerRun(learnerSources(invocation.learner), from);
  const notes = process.stderr;
  const prepared = await prepareRun(config, learner.code, notes, interactive ? undefined : invocation.prompt);
  const questions =
    process.stdin.isTTY && process.stderr.isTTY ? terminalQuestions(process.stdin, process.stderr) : undefined;
  const engine = engineFor(learner, interactive);
  const assembled = await assembleRun(config, prepared, {
    code: learner.code,
    engine: engine.factory,
    toolsSource: learner.dirs.get("08") ?? "课程",
    embeddedModel: readmeRoundTripModel,
    onFallback: (note, redact) => notes.write(`${fallbackLine(note, redact)}\n`),
    continuesTask: !interactive && invocation.prompt === undefined,
    ...(questions !== undefined ? { questions } : {}),
    notes,
    env: process.env,
  });
  try {
    const { choice, branchModel } = assembled;
    // Without a model named the embedded model's question is the prompt; with one, --resume needs a
    // prompt unless chapter 19's recovery found a task to go on with.
    const named = config.models.endpoint !== undefined || config.models.modelName !== undefined;
    const resuming = config.session.kind === "resume";
    if (!interactive && named && resuming && invocation.prompt === undefined && assembled.pendingTask === undefined) {
      throw new UsageError('这个会话没有未完成的任务可以继续：请把问题写在最后，例如 tiny-pi --resume FILE "接着做"。');
    }
    const outcome = choice.remote ? { baseURL: choice.redact(choice.models.startsOn().baseUrl) } : {};
    if (!choice.remote) notes.write(`${embeddedModelNotice}\n`);
    for (const line of modelLines(choice.models, config.models.modelName === undefined ? branchModel : undefined))
      notes.write(`${line}\n`);
    const started: StartedRun = {
      invocation,
      assembled,
      learner,
      engine,
      interrupts,
      endSetup: () => process.removeListener("SIGINT", onSignal),
      notes,
      outcome,
      present: presentation(invocation.mode, choice.redact, outcome),
      saving: sessionReport(assembled.session, from, notes),
      parts: runtimeParts(learner, config.tools, choice.remote, interactive),
    };
    return interactive
      ? await replRun(started, prepared.expand, questions)
      : await runOnce(started, prepared.prompt ?? readmeQuestion);
  } finally {
    await assembled.close();
  }
}
