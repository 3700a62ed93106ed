// The extensions of one run, behind the trust gate, and the hooks every tool call goes through.
// Trust is decided before chapter 12's loadExtensions imports a file: recorded trust (same real
// path, same content hash), --trust-extensions, or the person's answer on a terminal; without a
// terminal an untrusted extension is not loaded, and one line says so. The permission gate is a
// built-in extension whose before hook runs after the user's. The registry the loop gets is
// hookedRegistry's: a denied call becomes its paired error result, and the turn goes on. The gate
// waits for a person, so it is a layer of its own without a time limit; the user's hooks keep
// chapter 12's limit (a hook that hangs denies).
import { register as registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolRegistry } from "@pi/core";
import type { ExtensionFactory, HookSet, Resource } from "../index.js";
import { type GateOptions, permissionGate } from "./permission-gate.js";
import type { ResourceCode } from "./resource-code.js";
import type { TerminalQuestions } from "./terminal-questions.js";
import { trustRecord } from "./trust-record.js";

export interface ExtensionOptions {
  code: Pick<ResourceCode, "loadExtensions" | "hookedRegistry">;
  extensions: readonly Resource[];
  /** The run's tools so far; extensions register theirs into it. */
  registry: ToolRegistry;
  workspace: string;
  home: string;
  /** --trust-extensions. */
  trustAll: boolean;
  /** The terminal, when there is one. */
  questions?: TerminalQuestions;
  notes: { write(text: string): unknown };
  gate: Omit<GateOptions, "workspace" | "questions" | "notes">;
}

/** The built-in permission gate as an extension: one before hook (permission-gate.ts decides). */
export function permissionGateExtension(options: GateOptions): ExtensionFactory {
  return (api) => api.before(permissionGate(options));
}

export async function runExtensions(options: ExtensionOptions): Promise<ToolRegistry> {
  const { notes, questions, workspace } = options;
  const hooks: HookSet = { before: [], after: [] };
  const record = trustRecord(options.home);
  const shown = (file: Resource) => {
    const relative = path.relative(workspace, file.path);
    return relative.startsWith("..") || path.isAbsolute(relative) ? file.path : relative;
  };
  const trusted = async (file: Resource) => {
    let yes = options.trustAll || record.trusted(file.path);
    if (!yes && questions !== undefined) {
      const answer = await questions.ask(
        `信任扩展 ${shown(file)} 吗？它会以你的权限运行任意代码（记下它的路径与内容，改动后会再问）。(y / n)`,
      );
      yes = /^y(es)?$/i.test(answer);
      if (yes) record.trust(file.path);
    }
    if (yes && file.path.endsWith(".ts")) await typeScriptLoader(options.extensions);
    return yes;
  };
  const outcome = await options.code.loadExtensions(options.extensions, {
    trusted,
    registry: options.registry,
    hooks,
  });
  for (const diagnostic of outcome.diagnostics) notes.write(`（${diagnostic.message}）\n`);
  if (outcome.loaded.length > 0) {
    notes.write(`（已加载扩展：${outcome.loaded.map((file) => path.basename(file)).join("、")}）\n`);
  }
  if (outcome.skipped.length > 0) {
    const names = outcome.skipped.map((file) => path.basename(file)).join("、");
    notes.write(
      questions === undefined
        ? `（没有加载 ${outcome.skipped.length} 个扩展：${names}——不在终端里时，加 --trust-extensions 才加载它们）\n`
        : `（没有加载扩展：${names}——你没有信任它们）\n`,
    );
  }
  const gateHooks: HookSet = { before: [], after: [] };
  await permissionGateExtension({ ...options.gate, workspace, notes, ...(questions ? { questions } : {}) })({
    registerTool: (tool) => options.registry.register(tool),
    before: (hook) => void gateHooks.before.push(hook),
    after: (hook) => void gateHooks.after.push(hook),
  });
  const onDiagnostic = (diagnostic: { message: string }) => notes.write(`（${diagnostic.message}）\n`);
  const gated = options.code.hookedRegistry(options.registry, gateHooks, {
    beforeTimeoutMs: Number.POSITIVE_INFINITY,
    onDiagnostic,
  });
  // The outer layer runs first: an extension that denies a call does so before anyone is asked.
  return options.code.hookedRegistry(gated, hooks, { onDiagnostic });
}

let registered: Promise<void> | undefined;

/**
 * tsx's loader, registered once before the first .ts extension is imported (Node does not run
 * TypeScript itself), and ts-extension-hooks.ts, which makes every .ts file of the extension
 * folders an ES module whatever package.json is near it.
 */
function typeScriptLoader(extensions: readonly Resource[]): Promise<void> {
  registered ??= import("tsx/esm/api").then(({ register }) => {
    register();
    const folders = [...new Set(extensions.map((file) => pathToFileURL(`${path.dirname(file.path)}${path.sep}`).href))];
    registerHooks(new URL("./ts-extension-hooks.js", import.meta.url), { data: { folders } });
  });
  return registered;
}
