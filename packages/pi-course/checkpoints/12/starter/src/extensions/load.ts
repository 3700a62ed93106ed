// Checkpoint 12 · 学习脚手架：LoadedExtensions 与 Staged 的形状、只在工厂运行时记录的 stagingApi() 已经写好。
// Lab 12.4 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 12.4` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="信任门" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
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
  // Lab 12.4 ①：按顺序、一个接一个处理每个文件：前一个提交（或失败、跳过）之后才处理下一个，不一起 import
  // （前面的扩展提交的工具，就是后面的扩展的“已有的工具”）。先问 await options.trusted(file)（它可以是异步的；每个文件只问一次），只有恰好是 true 才算信任；它抛错也算
  // 不信任，并留一行诊断（`扩展 ${file.name} 的信任检查出错，没有加载：…`，source 是 file.path）。不信任的把 file.path 记进
  // skipped（只记不被信任的；加载失败的只留诊断），接着看下一个：在这之前不能有任何 import()，否则它的顶层代码已经运行了。
  // Lab 12.4 ②：信任的交给 stage()；它抛错就留一行诊断（`扩展 ${file.name} 没有加载，什么也没有注册：…`，
  // source 同样是 file.path）并接着处理下一个（continue，不是 break）。成功才提交：staged 的工具逐个 registry.register()，钩子接到 hooks.before / hooks.after 后面（push，已有的钩子仍在前），
  // 路径记进 loaded。一个坏文件从不让 loadExtensions 抛出。
  throw new Error("Lab 12.4 信任门 尚未实现");
}

/** Imports a trusted file and runs its factory against a staging area; throws if anything is wrong. */
async function stage(file: Resource, registry: ToolRegistry): Promise<Staged> {
  // Lab 12.4 ③：import(pathToFileURL(file.path).href)（在 stage() 里，所以顶层代码抛错也只是一行诊断）；默认导出不是函数就抛出
  // "它没有默认导出一个函数 (api) => void：写 export default function (api) { … }"。用一个新的 Staged
  // （open: true）调用工厂 await module.default(stagingApi(staged))（工厂可以是 async 的：不 await，它在 await
  // 之后抛的错就没人接，它先注册的工具却被提交了），无论成败之后都把 open 设为 false。
  // 再查工具名：与 registry 里已有的同名，或者这个扩展自己注册了两次，就抛出
  // `工具名 ${name} 已经有人用了：给扩展的工具换一个名字`。返回 staged。在这里（提交之前）查完全部工具名：
  // 冲突的是第二个工具时，第一个也不能已经注册。
  throw new Error("Lab 12.4 信任门 尚未实现");
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
