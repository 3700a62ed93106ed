// What tiny-pi hands chapter 13's Runtime, and the Runtime it gets back: the tools (with the
// skills' activate_skill), the extensions behind the trust gate with the permission gate built in,
// the system prompt naming the final tools, the session, the compaction hook. Chapter 13's code is
// the course's or a learner's (--from practice/13), and so is every part it is given where a
// practice directory has it. Nothing here presents anything: the lines it has to tell go to `notes`.
import type { Model, ToolRegistry } from "@pi/core";
import * as courseModes from "../modes/index.js";
import type { EngineFactory, Runtime, RuntimeParts } from "../runtime/index.js";
import * as courseWiring from "../runtime/index.js";
import type { CompactionCode } from "./compaction-code.js";
import { Compactor } from "./compactor.js";
import type { WindowInForce } from "./context-window.js";
import type { Questions } from "./questions.js";
import type { ResourceCode } from "./resource-code.js";
import { extensionLines, runtimeExtensions } from "./run-extensions.js";
import type { RunResources } from "./run-resources.js";
import type { HostSession } from "./session-store.js";
import { activateSkillTool } from "./skill-tool.js";
import { systemPrompt } from "./system-prompt.js";
import { type DeferChoice, declaredAtStart, type ExposureCode, exposeTools, exposureLine } from "./tool-exposure.js";

/** Chapter 13's exports tiny-pi runs on: this package's, or a practice tree's. */
export interface RuntimeCode13 {
  wireRuntime: typeof courseWiring.wireRuntime;
  openRuntime: typeof courseWiring.openRuntime;
  agentEngine: typeof courseWiring.agentEngine;
  loopEngine: typeof courseWiring.loopEngine;
  runMode: typeof courseModes.runMode;
}

export const courseRuntimeCode: RuntimeCode13 = {
  wireRuntime: courseWiring.wireRuntime,
  openRuntime: courseWiring.openRuntime,
  agentEngine: courseWiring.agentEngine,
  loopEngine: courseWiring.loopEngine,
  runMode: courseModes.runMode,
};

export interface RunOptions {
  workspace: string;
  home: string;
  /** The chosen workspace tools; the skills' tool and the extensions' tools are registered into it. */
  tools: ToolRegistry;
  resources: RunResources;
  resourceCode: ResourceCode;
  compactionCode?: CompactionCode;
  runtimeCode: RuntimeCode13;
  /** Chooses what the Runtime drives (an Agent, or a loop turn by turn). */
  engine: (code: RuntimeCode13) => EngineFactory;
  session: HostSession;
  /** The real model: the Runtime puts its context adapter in front of it. */
  model: Model;
  /** Where compaction summaries go; absent: `model`. */
  summaryModel?: Model;
  window: WindowInForce | undefined;
  maxSteps?: number;
  /** --trust-extensions, --yes, the protected paths. */
  trustAll: boolean;
  gate: { yes: boolean; protectedPaths: readonly string[]; alsoGated?: ReadonlySet<string> };
  /** Tools deferred behind tool_search (MCP servers' tools, unless the server is marked direct). */
  deferred?: ReadonlySet<string>;
  questions?: Questions;
  notes: { write(text: string): unknown };
  /** --defer-tools; absent: extension tools are deferred above the threshold. */
  defer?: DeferChoice;
  /** Chapter 15's code: the course's, or a learner's (--from practice/15). */
  exposureCode?: ExposureCode;
}

export interface OpenedRun {
  runtime: Runtime;
  /** Another Runtime on the same parts and session, at `leaf` (REPL /branch): nothing imported again. */
  reopen(leaf: string | undefined): Runtime;
  compactor: Compactor;
  parts: RuntimeParts;
  /** Chapter 13's mode called `name`, of the same code as the Runtime. */
  runMode: RuntimeCode13["runMode"];
}

export async function openRun(options: RunOptions): Promise<OpenedRun> {
  const { resources, resourceCode, notes, questions, runtimeCode, workspace } = options;
  if (resources.skills.length > 0) options.tools.register(activateSkillTool(resources.skills, resourceCode));
  const own = new Set(options.tools.definitions().map((tool) => tool.name));
  const deferred = options.deferred ?? new Set<string>();
  const wired = await runtimeCode.wireRuntime({
    tools: options.tools,
    systemPrompt: (names) => systemPrompt(workspace, declaredAtStart(names, deferred)),
    resources: { contextFiles: resources.contextFiles, skills: resources.skills },
    extensions: runtimeExtensions({
      extensions: resources.extensions,
      workspace,
      home: options.home,
      trustAll: options.trustAll,
      notes,
      gate: {
        yes: options.gate.yes,
        protectedPaths: [...options.gate.protectedPaths],
        ...(options.gate.alsoGated !== undefined ? { alsoGated: options.gate.alsoGated } : {}),
      },
      ...(questions !== undefined ? { questions } : {}),
    }),
    code: {
      formatResourceContext: resourceCode.formatResourceContext,
      loadExtensions: resourceCode.loadExtensions,
      hookedRegistry: resourceCode.hookedRegistry,
    },
  });
  for (const line of extensionLines(wired.extensions, questions !== undefined)) notes.write(`${line}\n`);
  const exposed = exposeTools(wired.tools, own, options.defer, options.exposureCode, deferred);
  for (const name of exposed.unknown) notes.write(`--defer-tools 里的 ${name} 不是哪个扩展注册的工具：没有延迟它\n`);
  const counts = exposureLine(exposed);
  if (counts !== undefined) notes.write(`${counts}\n`);
  const parts: RuntimeParts = { ...wired, tools: exposed.tools };
  const compactor = new Compactor({
    model: options.summaryModel ?? options.model,
    window: options.window,
    notes,
    ...(options.compactionCode !== undefined ? { code: options.compactionCode } : {}),
  });
  const engine = options.engine(runtimeCode);
  const reopen = (leaf: string | undefined) =>
    runtimeCode.openRuntime({
      session: options.session.store,
      ...(leaf !== undefined ? { leaf } : {}),
      model: options.model,
      parts,
      engine,
      ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
      ...(options.window !== undefined
        ? { window: { tokens: options.window.tokens, reserve: options.window.reserve } }
        : {}),
      compact: compactor.hook,
      code: { buildContext: compactor.buildContext },
      ...(options.session.durable !== undefined ? { durable: true } : {}),
    });
  return { runtime: reopen(options.session.leaf), reopen, compactor, parts, runMode: runtimeCode.runMode };
}
