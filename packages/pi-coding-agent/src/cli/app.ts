// One tiny-pi run, wired from its parts: the resources (AGENTS.md, skills, templates), the session,
// the loop and tools (the course's or the learner's) behind the extensions' hooks and the permission
// gate, the model, the view; then one turn (a prompt) or the REPL.

import { runAgentLoop } from "@pi/course";
import { createWorkspaceTools } from "../index.js";
import { type CliArgs, DEFAULT_PROTECTED_PATHS } from "./args.js";
import { compactingModel } from "./compacting-model.js";
import { Compactor } from "./compaction-turn.js";
import { windowInForce, windowLine } from "./context-window.js";
import { agentConversation, canUseAgent, loopConversation } from "./conversation.js";
import { embeddedModelNotice, readmeQuestion } from "./embedded-model.js";
import { EXIT_INTERRUPTED, UsageError } from "./errors.js";
import { humanView } from "./human-view.js";
import { Interrupts, SIGNAL_SAME_PRESS_MS } from "./interrupts.js";
import { jsonView } from "./json-view.js";
import { type LearnerRun, learnerSources, loadLearnerRun, runtimeParts } from "./learner-code.js";
import { shownPath } from "./learner-tree.js";
import { guardChildren, leave } from "./leave.js";
import { type ModelChoice, selectModel } from "./model-selection.js";
import { type Redact, redactingStore, redactingView } from "./redacting.js";
import { runRepl } from "./repl.js";
import { courseResourceCode, type ResourceCode } from "./resource-code.js";
import { runExtensions } from "./run-extensions.js";
import { exitCodeOf, failureLine, modelErrorLine } from "./run-outcome.js";
import { loadRunResources, type RunResources } from "./run-resources.js";
import { runTurn, type TurnSetup } from "./run-turn.js";
import { type RuntimeFacts, runtimeLine } from "./runtime-line.js";
import type { SessionCode } from "./session-code.js";
import { endsInsideALine } from "./session-file.js";
import { ignoredByGit } from "./session-gitignore.js";
import { type SessionRecorder, sessionRecorder } from "./session-recorder.js";
import {
  forkSession,
  newSession,
  noSession,
  type OpenedSession,
  resumeSession,
  type SessionStore,
} from "./session-store.js";
import { activateSkillTool } from "./skill-tool.js";
import { expandSlash } from "./slash-prompts.js";
import { styleFor } from "./style.js";
import { systemPrompt } from "./system-prompt.js";
import { type TerminalQuestions, terminalQuestions } from "./terminal-questions.js";
import { tinyPiHome } from "./tiny-pi-home.js";
import { selectTools, type ToolFactory } from "./tool-selection.js";

/** Runs tiny-pi as `args` say; `interactive`: the REPL. Resolves with the exit code. */
export async function runTinyPi(args: CliArgs, from: string, interactive: boolean): Promise<number> {
  guardChildren();
  const choice = await selectModel(args.endpoint);
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
  // Resources (AGENTS.md, skills, templates; no extension is imported yet) and a one-shot /template
  // or /skill: before the session is opened, so a prompt naming neither touches no session file.
  const resourceCode = learner.code.resources ?? courseResourceCode;
  const home = tinyPiHome(process.env);
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

  const { session, history } = await openSession(args, choice.redact, learner.code.session);
  const recorder = sessionRecorder(session, history.length);

  // Compaction: every request goes through the Compactor (compaction-turn.ts); the summariser is the same model, unrecorded.
  const window = await windowInForce(args);
  const compaction = learner.code.compaction;
  const compactor = new Compactor({
    model: choice.model,
    session,
    window,
    notes,
    ...(compaction ? { code: compaction } : {}),
  });
  const model = compactingModel(choice.model, compactor);
  const setup = await turnSetup(args, recorder, { ...choice, model }, learner, {
    code: resourceCode,
    resources,
    home,
    ...(questions !== undefined ? { questions } : {}),
  });
  const outcome = { ...(setup.baseURL !== undefined ? { baseURL: setup.baseURL } : {}) };
  if (setup.baseURL === undefined) notes.write(`${embeddedModelNotice}\n`);

  let reported = false;
  /** Waits for the session's writes; a failure is told once, in one line. */
  const saved = async () => {
    const failure = await session.flushed();
    if (failure !== undefined && !reported) notes.write(`会话没有保存完整：${failure}\n`);
    reported ||= failure !== undefined;
  };
  const reportSession = async () => {
    await saved();
    if (session.file === undefined) return;
    const shown = shownPath(session.file, from);
    // After a failed write the file may end in a cut-off line, which --resume refuses: name --fork instead.
    const next =
      reported && endsInsideALine(session.file)
        ? `最后一行没有写完：用 --fork ${shown} 从已提交的条目开一个新会话继续`
        : "用 --resume 继续";
    notes.write(`会话：${shown}（${next}）\n`);
  };
  const facts: RuntimeFacts = { parts: runtimeParts(learner, args.tools) };

  if (interactive) {
    process.removeListener("SIGINT", onSignal);
    const onAgent = canUseAgent(setup, history);
    notes.write(`${runtimeLine({ ...facts, typedLines: onAgent ? "steer" : "queue" })}\n`);
    notes.write(`${windowLine(window)}\n`);
    questions?.attach();
    const code = await runRepl({
      input: process.stdin,
      output: process.stdout,
      notes,
      banner: `tiny-pi · ${setup.label} · 工作区 ${args.workspace} · 工具 ${args.tools.join(",")} · /exit 或 Ctrl-D 退出`,
      conversation: onAgent
        ? agentConversation(setup, {
            retry: ({ attempt, delayMs, errorMessage }) =>
              notes.write(
                `（${modelErrorLine(errorMessage, outcome)}——${Math.round(delayMs / 100) / 10} 秒后第 ${attempt} 次重试）\n`,
              ),
          })
        : loopConversation(setup, history),
      afterTurn: (result) => {
        const line = failureLine(result, outcome);
        if (line !== undefined) notes.write(`${line}\n`);
      },
      interrupts,
      expand,
      ...(questions !== undefined ? { answer: (line: string) => questions.take(line) } : {}),
      compact: (instructions, signal) => compactor.compactNow(instructions, signal),
      session: {
        tree: () => session.tree(),
        saved,
        async branch(id) {
          const branch = await session.branch(id);
          recorder.rebase(branch.length);
          return loopConversation(setup, branch);
        },
      },
    });
    await reportSession();
    return code;
  }

  // A one-shot run names them only when a learner's code is in use, so a failure stays one line.
  if (learner.dirs.size > 0) notes.write(`${runtimeLine(facts)}\n`);
  if (window !== undefined) notes.write(`${windowLine(window)}\n`);
  const controller = new AbortController();
  interrupts.beginTurn(() => controller.abort());
  const result = await runTurn(setup, history, prompt, controller.signal);
  interrupts.endTurn();
  process.removeListener("SIGINT", onSignal);
  const line = failureLine(result, outcome);
  if (line !== undefined) notes.write(`${line}\n`);
  await reportSession();
  return exitCodeOf(result);
}

/** The session, keeping the key out of every line and the folder out of git. */
async function openSession(args: CliArgs, redact: Redact, code?: SessionCode): Promise<OpenedSession> {
  const choice = args.session;
  if (choice.kind === "none") return { session: noSession(), history: [] };
  const guarded = (store: SessionStore) => ignoredByGit(redactingStore(store, redact), args.workspace);
  if (choice.kind === "new") return { session: guarded(newSession(args.workspace, undefined, code)), history: [] };
  const opened =
    choice.kind === "fork"
      ? await forkSession(choice.file, args.workspace, choice.leaf, undefined, code)
      : await resumeSession(choice.file, choice.leaf, code);
  return { session: guarded(opened.session), history: opened.history };
}

/** What the tools of a run are built with beyond chapter 08's: chapter 12's code and the resources found. */
interface ToolResources {
  code: ResourceCode;
  resources: RunResources;
  home: string;
  questions?: TerminalQuestions;
}

async function turnSetup(
  args: CliArgs,
  recorder: SessionRecorder,
  choice: ModelChoice,
  learner: LearnerRun,
  extras: ToolResources,
): Promise<TurnSetup & { baseURL?: string; label: string }> {
  const { code, dirs } = learner;
  const runLoop = code.runAgentLoop ?? runAgentLoop;
  const createTools: ToolFactory = code.createWorkspaceTools ?? createWorkspaceTools;
  const chosen = selectTools(createTools, args.workspace, args.tools, dirs.get("08") ?? "课程");
  const { skills, extensions, context } = extras.resources;
  if (skills.length > 0) chosen.register(activateSkillTool(skills, extras.code));
  const tools = await runExtensions({
    code: extras.code,
    extensions,
    registry: chosen,
    workspace: args.workspace,
    home: extras.home,
    trustAll: args.trustExtensions === true,
    ...(extras.questions !== undefined ? { questions: extras.questions } : {}),
    notes: process.stderr,
    gate: { yes: args.yes === true, protectedPaths: args.protectedPaths ?? DEFAULT_PROTECTED_PATHS },
  });
  const view = args.mode === "json" ? jsonView(process.stdout) : humanView(process.stdout, styleFor(process.stdout, process.env));
  return {
    runLoop,
    loopSource: dirs.has("07") ? `${dirs.get("07")} 里` : "课程",
    ...(code.agent !== undefined ? { agent: code.agent } : {}),
    model: recorder.recording(choice.model),
    tools,
    systemPrompt: systemPrompt(
      args.workspace,
      tools.definitions().map((tool) => tool.name),
      context,
    ),
    ...(args.maxSteps !== undefined ? { maxSteps: args.maxSteps } : {}),
    view: redactingView(view, choice.redact),
    recorder,
    label: choice.label,
    ...(choice.baseURL !== undefined ? { baseURL: choice.baseURL } : {}),
  };
}
