// Lab 12.4 · 信任门: an extension's code runs only after it is trusted, and registers all or nothing.
import { pathToFileURL } from "node:url";
import { errorMessageOf, type Tool, type ToolRegistry } from "@pi/core";
import type { Diagnostic, Resource } from "../resources/types.js";
import type { ExtensionApi, HookSet } from "./types.js";

export interface LoadedExtensions {
  /** Paths of the extensions whose factory ran and whose registrations were committed. */
  loaded: string[];
  /** Paths of the extensions that were not trusted: never imported. */
  skipped: string[];
  diagnostics: Diagnostic[];
}

interface Staged {
  tools: Tool[];
  hooks: HookSet;
  open: boolean;
}

/**
 * For each file in order: `trusted(file)` is decided strictly before `import()`, so an untrusted
 * file's top-level code never runs. A trusted one is imported and its default export called with
 * a staging API; its tools and hooks reach `registry` and `hooks` only if the factory succeeds and
 * no tool name collides. One bad file is a diagnostic, never a throw.
 */
export async function loadExtensions(
  files: readonly Resource[],
  options: { trusted: (file: Resource) => boolean | Promise<boolean>; registry: ToolRegistry; hooks: HookSet },
): Promise<LoadedExtensions> {
  const outcome: LoadedExtensions = { loaded: [], skipped: [], diagnostics: [] };
  for (const file of files) {
    const problem = (message: string) => outcome.diagnostics.push({ source: file.path, message });
    let trusted = false;
    try {
      trusted = (await options.trusted(file)) === true;
    } catch (error) {
      problem(`扩展 ${file.name} 的信任检查出错，没有加载：${errorMessageOf(error)}`);
    }
    if (!trusted) {
      outcome.skipped.push(file.path);
      continue;
    }
    let staged: Staged;
    try {
      staged = await stage(file, options.registry);
    } catch (error) {
      problem(`扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(error)}`);
      continue;
    }
    for (const tool of staged.tools) options.registry.register(tool);
    options.hooks.before.push(...staged.hooks.before);
    options.hooks.after.push(...staged.hooks.after);
    outcome.loaded.push(file.path);
  }
  return outcome;
}

/** Imports a trusted file and runs its factory against a staging area; throws if anything is wrong. */
async function stage(file: Resource, registry: ToolRegistry): Promise<Staged> {
  const module = (await import(pathToFileURL(file.path).href)) as { default?: unknown };
  if (typeof module.default !== "function") {
    throw new Error("它没有默认导出一个函数 (api) => void：写 export default function (api) { … }");
  }
  const staged: Staged = { tools: [], hooks: { before: [], after: [] }, open: true };
  try {
    await module.default(stagingApi(staged));
  } finally {
    staged.open = false;
  }
  const names = staged.tools.map((tool) => tool.name);
  const taken = names.find((name, index) => registry.get(name) !== undefined || names.indexOf(name) !== index);
  if (taken !== undefined) throw new Error(`工具名 ${taken} 已经有人用了：给扩展的工具换一个名字`);
  return staged;
}

/** An API that only records, and only while the factory runs: nothing is live until it has returned. */
function stagingApi(staged: Staged): ExtensionApi {
  const record =
    <T>(list: T[]) =>
    (item: T): void => {
      if (!staged.open) throw new Error("扩展只能在它的工厂函数运行时注册工具与钩子");
      list.push(item);
    };
  return { registerTool: record(staged.tools), before: record(staged.hooks.before), after: record(staged.hooks.after) };
}
