// A run composed from its configuration, once the checks of prepare-run.ts passed: the session
// (chapter 10), the model in force on it (chapter 18), the window (chapter 11), the workspace tools
// and the code tool (chapters 08 and 16), the MCP servers (chapter 17), all handed to chapter 13's
// Runtime (open-run.ts). Nothing here presents anything: the lines to tell go to `notes`.
import type { Model, ToolRegistry } from "@pi/core";
import type { FallbackNote } from "../models/index.js";
import type { EngineFactory } from "../runtime/index.js";
import { pathTo } from "../session/session-tree.js";
import { createWorkspaceTools } from "../workspace-tools.js";
import { type WindowInForce, windowInForce } from "./context-window.js";
import { recoverDurable } from "./durable-session.js";
import { openMcpServers } from "./mcp-run.js";
import { chooseModel, type ModelChoice } from "./model-selection.js";
import { courseModelsCode } from "./model-switch.js";
import { courseRuntimeCode, type OpenedRun, openRun, type RuntimeCode13 } from "./open-run.js";
import { piFieldsStore } from "./pi-fields.js";
import type { PreparedRun } from "./prepare-run.js";
import type { Questions } from "./questions.js";
import { type Redact, redactingStore } from "./redacting.js";
import type { RunCode, RunConfig } from "./run-config.js";
import { courseSessionCode } from "./session-code.js";
import { ignoredByGit } from "./session-gitignore.js";
import { type HostSession, openChosenSession } from "./session-store.js";
import { addCodeTool, selectTools } from "./tool-selection.js";

export interface RunSides {
  code: RunCode;
  /** What the Runtime drives: an Agent, or a loop turn by turn (cli/learner-code.ts's engineFor). */
  engine: (code: RuntimeCode13) => EngineFactory;
  /** Where the workspace tools come from, for the one line a missing tool gives. */
  toolsSource: string;
  /** The model that answers when no endpoint or models.json is named. */
  embeddedModel: () => Model;
  /** A request went to the next model of its route; `redact` takes the keys out of its reason. */
  onFallback(note: FallbackNote, redact: Redact): void;
  questions?: Questions;
  /** Chapter 19: a run with no prompt off the REPL goes on with the task a crash left (if there is one). */
  continuesTask: boolean;
  notes: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

export interface AssembledRun {
  run: OpenedRun;
  session: HostSession;
  choice: ModelChoice;
  /** The model in force on a resumed branch, if it names one. */
  branchModel: string | undefined;
  window: WindowInForce | undefined;
  /** Chapter 19: the task a crashed durable session left unfinished, to go on with instead of a prompt. */
  pendingTask?: string;
  /** Ends the MCP servers. */
  close(): Promise<void>;
}

export async function assembleRun(config: RunConfig, prepared: PreparedRun, sides: RunSides): Promise<AssembledRun> {
  const { code, notes } = sides;
  // With --from a chapter-19 directory, the session is written through the learner's durable layer.
  const sessionCode =
    code.durable === undefined ? code.session : { ...(code.session ?? courseSessionCode), durable: code.durable };
  const opened = await openChosenSession(config.session, config.workspace, sessionCode);
  // A resumed branch continues on its own model unless --model names another.
  // With --from a chapter-18 directory, the catalogue, routing and branch state are the learner's.
  const modelsCode = code.models ?? courseModelsCode;
  const branchModel =
    opened.leaf === undefined ? undefined : modelsCode.modelInForce(pathTo(opened.store.entries(), opened.leaf));
  // With --from a chapter-05 directory, the endpoints are answered by the learner's own provider.
  const choice: ModelChoice = await chooseModel(
    prepared.models,
    branchModel,
    (note) => sides.onFallback(note, choice.redact),
    sides.embeddedModel,
    code.openAICompatibleModel,
    modelsCode,
  );
  let session = savedAs(opened, config.workspace, choice);
  const { endpoint } = config.models;
  const window = await windowInForce({ ...config.window, ...(endpoint !== undefined ? { endpoint } : {}) });
  const tools = selectTools(
    code.createWorkspaceTools ?? createWorkspaceTools,
    config.workspace,
    config.tools,
    sides.toolsSource,
  );
  // Chapter 19: a durable session resumed after a crash is recovered with these tools, told in one line.
  const recovered =
    session.durable !== undefined && config.session.kind === "resume"
      ? await recoverDurable(session, tools, sides.continuesTask)
      : undefined;
  if (recovered !== undefined) {
    session = recovered.session;
    if (recovered.line !== undefined) notes.write(`${recovered.line}\n`);
  }
  const pendingTask = recovered?.pendingTask;
  let wired: ToolRegistry | undefined;
  addCodeTool(tools, config.tools, () => wired, code.createCodeTool);
  const { questions } = sides;
  const mcp = await openMcpServers(prepared.resources.roots, tools, {
    home: config.home,
    workspace: config.workspace,
    trustAll: config.trustMcp,
    ...(questions !== undefined ? { questions } : {}),
    notes,
    env: sides.env,
    ...(code.mcp !== undefined ? { code: code.mcp } : {}),
  });
  try {
    const run = await openRun({
      workspace: config.workspace,
      home: config.home,
      tools,
      resources: prepared.resources,
      resourceCode: prepared.resourceCode,
      ...(code.compaction !== undefined ? { compactionCode: code.compaction } : {}),
      runtimeCode: code.runtime ?? courseRuntimeCode,
      engine: sides.engine,
      session,
      model: choice.models.model,
      summaryModel: choice.models.summaryModel,
      window,
      ...(config.maxSteps !== undefined ? { maxSteps: config.maxSteps } : {}),
      trustAll: config.trustExtensions,
      gate: { yes: config.gate.yes, protectedPaths: config.gate.protectedPaths, alsoGated: mcp.gated },
      deferred: mcp.deferred,
      ...(questions !== undefined ? { questions } : {}),
      notes,
      ...(config.defer !== undefined ? { defer: config.defer } : {}),
      ...(code.exposure !== undefined ? { exposureCode: code.exposure } : {}),
    });
    wired = run.parts.tools;
    return {
      run,
      session,
      choice,
      branchModel,
      window,
      ...(pendingTask !== undefined ? { pendingTask } : {}),
      close: () => mcp.close(),
    };
  } catch (error) {
    await mcp.close();
    throw error;
  }
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
