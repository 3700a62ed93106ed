// The extensions of one run for the Runtime's wiring (chapter 13's wireRuntime, on chapter 12's
// loadExtensions and hookedRegistry): trust is decided before a file is imported: recorded trust
// (same real path, same content hash), --trust-extensions, or the person's answer on a terminal;
// without a terminal an untrusted extension is not loaded, and one line says so. The permission
// gate is a built-in extension whose before hook runs after the user's, without a time limit (it
// waits for a person); the user's hooks keep chapter 12's limit (a hook that hangs denies).
import { register as registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ExtensionFactory, LoadedExtensions, Resource } from "../index.js";
import type { RuntimeExtensions } from "../runtime/index.js";
import { type GateOptions, permissionGate } from "./permission-gate.js";
import type { Questions } from "./questions.js";
import { trustRecord } from "./trust-record.js";

export interface ExtensionOptions {
  extensions: readonly Resource[];
  workspace: string;
  home: string;
  /** --trust-extensions. */
  trustAll: boolean;
  /** The terminal, when there is one. */
  questions?: Questions;
  notes: { write(text: string): unknown };
  gate: Omit<GateOptions, "workspace" | "questions" | "notes">;
}

/** The built-in permission gate as an extension: one before hook (permission-gate.ts decides). */
export function permissionGateExtension(options: GateOptions): ExtensionFactory {
  return (api) => api.before(permissionGate(options));
}

/** What wireRuntime loads: the extension files behind the trust gate, the permission gate built in. */
export function runtimeExtensions(options: ExtensionOptions): RuntimeExtensions {
  const { notes, questions, workspace } = options;
  const record = trustRecord(options.home);
  const trusted = async (file: Resource) => {
    let yes = options.trustAll || record.trusted(file.path);
    if (!yes && questions !== undefined) {
      const answer = await questions.ask(
        `信任扩展 ${shownIn(workspace, file)} 吗？它会以你的权限运行任意代码（记下它的路径与内容，改动后会再问）。(y / n)`,
      );
      yes = /^y(es)?$/i.test(answer);
      if (yes) record.trust(file.path);
    }
    if (yes && file.path.endsWith(".ts")) await typeScriptLoader(options.extensions);
    return yes;
  };
  const gate = permissionGateExtension({ ...options.gate, workspace, notes, ...(questions ? { questions } : {}) });
  return {
    files: options.extensions,
    trusted,
    builtIn: [gate],
    onDiagnostic: (diagnostic) => notes.write(`（${diagnostic.message}）\n`),
  };
}

/** The lines that tell what loading did: each problem, the extensions loaded, those not trusted. */
export function extensionLines(outcome: LoadedExtensions, asked: boolean): string[] {
  const lines = outcome.diagnostics.map((diagnostic) => `（${diagnostic.message}）`);
  if (outcome.loaded.length > 0) {
    lines.push(`（已加载扩展：${outcome.loaded.map((file) => path.basename(file)).join("、")}）`);
  }
  if (outcome.skipped.length > 0) {
    const names = outcome.skipped.map((file) => path.basename(file)).join("、");
    lines.push(
      asked
        ? `（没有加载扩展：${names}——你没有信任它们）`
        : `（没有加载 ${outcome.skipped.length} 个扩展：${names}——不在终端里时，加 --trust-extensions 才加载它们）`,
    );
  }
  return lines;
}

function shownIn(workspace: string, file: Resource): string {
  const relative = path.relative(workspace, file.path);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file.path : relative;
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
