// Chapter 12's parts, composed once per run: the extensions behind the trust gate, built-in
// extensions (tiny-pi's permission gate) as an inner layer without a time limit, and the system
// prompt: the base (which may name the final tools) followed by the resource context. Several
// Runtimes (a /branch) can be opened on the same parts without importing anything again.
import type { HookSet } from "../extensions/index.js";
import { hookedRegistry, loadExtensions } from "../extensions/index.js";
import { formatResourceContext } from "../resources/index.js";
import type { RuntimeParts, WireOptions } from "./types.js";

export async function wireRuntime(options: WireOptions): Promise<RuntimeParts> {
  const code = { loadExtensions, hookedRegistry, formatResourceContext, ...options.code };
  const { extensions } = options;
  const hooks: HookSet = { before: [], after: [] };
  const loaded = extensions
    ? await code.loadExtensions(extensions.files, { trusted: extensions.trusted, registry: options.tools, hooks })
    : { loaded: [], skipped: [], diagnostics: [] };
  const onDiagnostic = extensions?.onDiagnostic;
  const diagnostics = onDiagnostic ? { onDiagnostic } : {};
  let tools = options.tools;
  const builtIn = extensions?.builtIn ?? [];
  if (builtIn.length > 0) {
    const inner: HookSet = { before: [], after: [] };
    for (const factory of builtIn) {
      await factory({
        registerTool: (tool) => options.tools.register(tool),
        before: (hook) => void inner.before.push(hook),
        after: (hook) => void inner.after.push(hook),
      });
    }
    tools = code.hookedRegistry(tools, inner, { beforeTimeoutMs: Number.POSITIVE_INFINITY, ...diagnostics });
  }
  // The outer layer runs first: an extension that denies a call does so before a person is asked.
  tools = code.hookedRegistry(tools, hooks, diagnostics);
  const names = tools.definitions().map((tool) => tool.name);
  const base = typeof options.systemPrompt === "function" ? options.systemPrompt(names) : options.systemPrompt;
  const context = options.resources
    ? code.formatResourceContext(options.resources.contextFiles, options.resources.skills)
    : "";
  return { tools, systemPrompt: context === "" ? base : `${base}\n\n${context}`, extensions: loaded };
}
