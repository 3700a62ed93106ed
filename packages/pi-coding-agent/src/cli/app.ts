// One tiny-pi run: the parts chosen from the command line (the model, the learner's code, the
// tools, the resources, the session) handed to chapter 13's Runtime (host/open-run.ts), then
// presented: one prompt in the chosen mode (the human view, -p's final text, JSON lines) or the REPL.
// Everything that persists, builds a context or runs an extension is the Runtime's side.

import type { ToolRegistry } from "@pi/core";
import type { AgentRunResult } from "@pi/course";
import { windowInForce, windowLine } from "../host/context-window.js";
import { EXIT_INTERRUPTED, UsageError } from "../host/errors.js";
import { type McpRun, openMcpServers } from "../host/mcp-run.js";
import { ModelRecord } from "../host/model-record.js";
import { courseModelsCode } from "../host/model-switch.js";
import { courseRuntimeCode, type OpenedRun, openRun } from "../host/open-run.js";
import { piFieldsStore } from "../host/pi-fields.js";
import { redactingStore } from "../host/redacting.js";
import { courseResourceCode } from "../host/resource-code.js";
import { loadRunResources } from "../host/run-resources.js";
import type { SessionCode } from "../host/session-code.js";
import { ignoredByGit } from "../host/session-gitignore.js";
import { forkSession, type HostSession, newSession, noSession, resumeSession } from "../host/session-store.js";
import { expandSlash } from "../host/slash-prompts.js";
import { createWorkspaceTools } from "../index.js";
import type { Runtime } from "../runtime/index.js";
import { pathTo } from "../session/session-tree.js";
import { type CliArgs, DEFAULT_PROTECTED_PATHS } from "./args.js";
import { embeddedModelNotice, readmeQuestion } from "./embedded-model.js";
import { Interrupts, SIGNAL_SAME_PRESS_MS } from "./interrupts.js";
import { engineFor, learnerSources, loadLearnerRun, runtimeParts } from "./learner-code.js";
import { guardChildren, leave } from "./leave.js";
import { fallbackLine, modelLabel, modelLines } from "./model-lines.js";
import { chooseModel, loadModels, type ModelChoice } from "./model-selection.js";
import { type Presentation, presentation } from "./presentation.js";
import { runRepl } from "./repl.js";
import { exitCodeOf, failureLine, promptFailure } from "./run-outcome.js";
import { runtimeConversation, sessionCommands } from "./runtime-conversation.js";
import { type RuntimeFacts, runtimeLine } from "./runtime-line.js";
import { type SessionReport, sessionReport } from "./session-report.js";
import { terminalQuestions } from "./terminal-questions.js";
import { tinyPiHome } from "./tiny-pi-home.js";
import { addCodeTool, selectTools, type ToolFactory } from "./tool-selection.js";

/** Runs tiny-pi as `args` say; `interactive`: the REPL. Resolves with the exit code. */
export async function runTinyPi(args: CliArgs, from: string, interactive: boolean): Promise<number> {
  guardChildren();
  const interrupts = new Interrupts(interactive ? 0 : SIGNAL_SAME_PRESS_MS);
  // Setting up may run a learner's focused tests: Ctrl-C then simply exits (their run is stopped with us).
  const onSignal = () => {
    if (interrupts.press(true) === "exit") leave(EXIT_INTERRUPTED);
    else process.stderr.write("\n（正在中止这一轮；再按一次 Ctrl-C 退出）\n");
  };
  process.on("SIGINT", onSignal);
  // --from / --loop / --tools-from: checked before the session is opened, so a refusal touches no session file.
  const learner = await loadLearnerRun(learnerSources(args), from);
  const notes = process.stderr;
  const home = tinyPiHome(process.env);
  // The catalogue and --model: checked before the session is opened, so a refusal touches no session file.
  // With --from a chapter-18 directory, the catalogue, routing and branch state are the learner's.
  const modelsCode = learner.code.models ?? courseModelsCode;
  const loaded = loadModels(args, home, modelsCode);
  // Resources (no extension is imported yet) and a one-shot /template or /skill: before the
  // session is opened, so a prompt naming neither touches no session file.
  const resourceCode = learner.code.resources ?? courseResourceCode;
  const resources = loadRunResources(resourceCode, {
    workspace: args.workspace,
    home,
    contextFiles: args.noContextFiles !== true,
  });
  for (const line of resources.problems) notes.write(`${line}\n`);
  const expand = (line: string) => expandSlash(line, resources, resourceCode);
  let prompt = args.prompt ?? readmeQuestion;
  if (!interactive && args.prompt !== undefined) {
    const expanded = await expand(args.prompt);
    if (expanded !== undefined && "problem" in expanded) throw new UsageError(expanded.problem);
    if (expanded !== undefined) prompt = expanded.prompt;
  }
  const questions =
    process.stdin.isTTY && process.stderr.isTTY ? terminalQuestions(process.stdin, process.stderr) : undefined;

  const opened = await openSession(args, learner.code.session);
  // A resumed branch continues on its own model unless --model names another.
  const branchModel =
    opened.leaf === undefined ? undefined : modelsCode.modelInForce(pathTo(opened.store.entries(), opened.leaf));
  // With --from a chapter-05 directory, the endpoints are answered by the learner's own provider.
  const choice = await chooseModel(
    loaded,
    branchModel,
    (note) => notes.write(`${fallbackLine(note, redact)}\n`),
    learner.code.openAICompatibleModel,
    modelsCode,
  );
  const { models } = choice;
  function redact(text: string): string {
    return choice.redact(text);
  }
  const session = savedAs(opened, args.workspace, choice);
  const window = await windowInForce(args);
  const createTools: ToolFactory = learner.code.createWorkspaceTools ?? createWorkspaceTools;
  const engine = engineFor(learner, interactive);
  const tools = selectTools(createTools, args.workspace, args.tools, learner.dirs.get("08") ?? "课程");
  let wired: ToolRegistry | undefined;
  addCodeTool(tools, args.tools, () => wired, learner.code.createCodeTool);
  const mcp: McpRun = await openMcpServers(resources.roots, tools, {
    home,
    workspace: args.workspace,
    trustAll: args.trustMcp === true,
    ...(questions !== undefined ? { questions } : {}),
    notes,
    env: process.env,
    ...(learner.code.mcp !== undefined ? { code: learner.code.mcp } : {}),
  });
  try {
    return await runWith();
  } finally {
    await mcp.close();
  }

  async function runWith(): Promise<number> {
    const run = await openRun({
      workspace: args.workspace,
      home,
      tools,
      resources,
      resourceCode,
      ...(learner.code.compaction !== undefined ? { compactionCode: learner.code.compaction } : {}),
      runtimeCode: learner.code.runtime ?? courseRuntimeCode,
      engine: engine.factory,
      session,
      model: models.model,
      summaryModel: models.summaryModel,
      window,
      ...(args.maxSteps !== undefined ? { maxSteps: args.maxSteps } : {}),
      trustAll: args.trustExtensions === true,
      gate: {
        yes: args.yes === true,
        protectedPaths: args.protectedPaths ?? DEFAULT_PROTECTED_PATHS,
        alsoGated: mcp.gated,
      },
      deferred: mcp.deferred,
      ...(questions !== undefined ? { questions } : {}),
      notes,
      ...(args.deferTools !== undefined ? { defer: args.deferTools } : {}),
      ...(learner.code.exposure !== undefined ? { exposureCode: learner.code.exposure } : {}),
    });
    wired = run.parts.tools;
    const outcome = choice.remote ? { baseURL: redact(models.startsOn().baseUrl) } : {};
    if (!choice.remote) notes.write(`${embeddedModelNotice}\n`);
    for (const line of modelLines(models, args.modelName === undefined ? branchModel : undefined))
      notes.write(`${line}\n`);
    const present = presentation(args.mode, choice.redact, outcome);
    const saving = sessionReport(session, from, notes);
    const facts: RuntimeFacts = {
      parts: runtimeParts(learner, args.tools, choice.remote, interactive),
    };

    if (interactive) {
      process.removeListener("SIGINT", onSignal);
      notes.write(`${runtimeLine({ ...facts, typedLines: engine.steers ? "steer" : "queue" })}\n`);
      notes.write(`${windowLine(window)}\n`);
      questions?.attach();
      let record = new ModelRecord(run.runtime, models);
      let runtime = record.runtime;
      let unsubscribe = runtime.subscribe(present.onEvent);
      const conversation = () => runtimeConversation(runtime, engine.source, engine.steers);
      const code = await runRepl({
        input: process.stdin,
        output: process.stdout,
        notes,
        banner: `tiny-pi · ${modelLabel(choice)} · 工作区 ${args.workspace} · 工具 ${args.tools.join(",")} · /exit 或 Ctrl-D 退出`,
        conversation: conversation(),
        afterTurn: (result) => {
          const line = failureLine(result, outcome);
          if (line !== undefined) notes.write(`${line}\n`);
        },
        interrupts,
        expand,
        ...(questions !== undefined ? { answer: (line: string) => questions.take(line) } : {}),
        compact: (instructions, signal) => run.compactor.compactNow(runtime.compaction, instructions, signal),
        settings: new Map([
          ["/model", (name: string) => record.switchTo(name)],
          ["/thinking", (level: string) => record.setThinking(level)],
        ]),
        session: sessionCommands(session, learner.code.session, {
          current: () => runtime,
          saved: () => saving.saved(runtime),
          async reopen(leaf) {
            await runtime.dispose().catch(() => undefined);
            unsubscribe();
            // The branch reopened continues on its own model.
            const reopened = run.reopen(leaf);
            const restored = models.code.modelInForce(reopened.compaction.path());
            if (restored !== undefined && models.catalogue.physical.has(restored)) models.select(restored);
            record = new ModelRecord(reopened, models);
            runtime = record.runtime;
            unsubscribe = runtime.subscribe(present.onEvent);
            return conversation();
          },
        }),
      });
      await saving.end(runtime);
      return code;
    }

    // A one-shot run names them only when a learner's code is in use, so a failure stays one line.
    if (learner.dirs.size > 0) notes.write(`${runtimeLine(facts)}\n`);
    if (window !== undefined) notes.write(`${windowLine(window)}\n`);
    const runtime = new ModelRecord(run.runtime, models).runtime;
    const unsubscribe = runtime.subscribe(present.onEvent);
    interrupts.beginTurn(() => runtime.abort());
    const result = await promptOnce(run, runtime, args, prompt, present, engine.source, saving);
    interrupts.endTurn();
    unsubscribe();
    process.removeListener("SIGINT", onSignal);
    const line = failureLine(result, outcome);
    if (line !== undefined) notes.write(`${line}\n`);
    await saving.end(runtime);
    return exitCodeOf(result);
  }
}

/**
 * The one prompt of a run without the REPL: the human view's (text), or chapter 13's print or
 * JSON mode. A prompt the Runtime refused after a failed write has been told already: its turn
 * ended as the last turn_end said.
 */
async function promptOnce(
  run: OpenedRun,
  runtime: Runtime,
  args: CliArgs,
  prompt: string,
  present: Presentation,
  loopSource: string,
  saving: SessionReport,
): Promise<AgentRunResult> {
  try {
    if (args.mode === "text") return await runtime.prompt(prompt);
    const result = await run.runMode(args.mode, runtime, { output: present.output, prompts: [prompt] });
    return result ?? { reason: "stop", messages: [], steps: 0 };
  } catch (error) {
    if (saving.toldFailure(runtime, error)) return { reason: present.lastReason() ?? "error", messages: [], steps: 0 };
    throw promptFailure(error, loopSource);
  }
}

/** The session the run continues (--resume, --fork), a new one, or none. */
async function openSession(args: CliArgs, code?: SessionCode): Promise<HostSession> {
  const choice = args.session;
  if (choice.kind === "none") return noSession(args.workspace);
  return choice.kind === "new"
    ? newSession(args.workspace, undefined, code)
    : choice.kind === "fork"
      ? await forkSession(choice.file, args.workspace, choice.leaf, undefined, code)
      : await resumeSession(choice.file, choice.leaf, code);
}

/** `opened`, keeping every key out of its entries and its folder out of git; assistant entries carry Pi's fields and cost. */
function savedAs(opened: HostSession, workspace: string, choice: ModelChoice): HostSession {
  if (opened.none === true) return opened;
  const { models } = choice;
  const store = piFieldsStore(
    redactingStore(opened.store, choice.redact),
    () => models.identity(),
    (provider, model) => models.prices(provider, model),
  );
  return ignoredByGit({ ...opened, store, file: () => opened.file() }, workspace);
}
