// A run in the REPL: the start lines, then runRepl (repl.ts) talking to the Runtime, with /model
// and /thinking (chapter 18), /compact (chapter 11), /tree and /branch (chapter 10) and the
// permission gate's questions answered from the typed lines.
import { windowLine } from "../host/context-window.js";
import { ModelRecord } from "../host/model-record.js";
import type { Expanded } from "../host/slash-prompts.js";
import { modelLabel } from "./model-lines.js";
import { runRepl } from "./repl.js";
import { failureLine } from "./run-outcome.js";
import { runtimeConversation, sessionCommands } from "./runtime-conversation.js";
import { runtimeLine } from "./runtime-line.js";
import type { StartedRun } from "./started-run.js";
import type { TerminalQuestions } from "./terminal-questions.js";

export async function replRun(
  started: StartedRun,
  expand: (line: string) => Promise<Expanded | undefined>,
  questions: TerminalQuestions | undefined,
): Promise<number> {
  const { assembled, notes, engine, present, saving } = started;
  const { run, choice } = assembled;
  const { config } = started.invocation;
  started.endSetup();
  notes.write(`${runtimeLine({ parts: started.parts, typedLines: engine.steers ? "steer" : "queue" })}\n`);
  notes.write(`${windowLine(assembled.window)}\n`);
  questions?.attach();
  let record = new ModelRecord(run.runtime, choice.models);
  let runtime = record.runtime;
  let unsubscribe = runtime.subscribe(present.onEvent);
  const conversation = () => runtimeConversation(runtime, engine.source, engine.steers);
  const code = await runRepl({
    input: process.stdin,
    output: process.stdout,
    notes,
    banner: `tiny-pi · ${modelLabel(choice)} · 工作区 ${config.workspace} · 工具 ${config.tools.join(",")} · /exit 或 Ctrl-D 退出`,
    conversation: conversation(),
    afterTurn: (result) => {
      const line = failureLine(result, started.outcome);
      if (line !== undefined) notes.write(`${line}\n`);
    },
    interrupts: started.interrupts,
    expand,
    ...(questions !== undefined ? { answer: (line: string) => questions.take(line) } : {}),
    compact: (instructions, signal) => run.compactor.compactNow(runtime.compaction, instructions, signal),
    settings: new Map([
      ["/model", (name: string) => record.switchTo(name)],
      ["/thinking", (level: string) => record.setThinking(level)],
    ]),
    session: sessionCommands(assembled.session, started.learner.code.session, {
      current: () => runtime,
      saved: () => saving.saved(runtime),
      async reopen(leaf) {
        await runtime.dispose().catch(() => undefined);
        unsubscribe();
        // The branch reopened continues on its own model.
        const reopened = run.reopen(leaf);
        const restored = choice.models.code.modelInForce(reopened.compaction.path());
        if (restored !== undefined && choice.models.catalogue.physical.has(restored)) choice.models.select(restored);
        record = new ModelRecord(reopened, choice.models);
        runtime = record.runtime;
        unsubscribe = runtime.subscribe(present.onEvent);
        return conversation();
      },
    }),
  });
  await saving.end(runtime);
  return code;
}
