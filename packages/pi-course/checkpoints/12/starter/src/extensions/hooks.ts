// Checkpoint 12 · 学习脚手架：HookOptions、DEFAULT_BEFORE_TIMEOUT_MS、包装每个工具的 hookedRegistry()、判断钩子答复的
// checked() 与 failed() 已经写好。Lab 12.5 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 12.5` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工具钩子" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import { errorMessageOf, type Tool, ToolRegistry } from "@pi/core";
import type { Diagnostic } from "../resources/types.js";
import type { HookCall, HookSet, ToolHookContext } from "./types.js";

/** How long a before hook may take before the call is denied; tiny-pi's prompt passes Infinity. */
export const DEFAULT_BEFORE_TIMEOUT_MS = 30_000;

export interface HookOptions {
  beforeTimeoutMs?: number;
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * A registry holding `registry`'s tools as they are now, each wrapped in the hooks. Every before
 * hook runs in order and the first deny wins; a hook that throws or does not settle within
 * `beforeTimeoutMs` denies, with a diagnostic. A denied call's execute throws, so executeToolCall
 * pairs it as an error result and the core tool never runs. After hooks run exactly once per
 * output the core tool returns; their failure is only a diagnostic.
 */
export function hookedRegistry(registry: ToolRegistry, hooks: HookSet, options: HookOptions = {}): ToolRegistry {
  const hooked = new ToolRegistry();
  for (const { name } of registry.definitions()) {
    const tool = registry.get(name);
    if (tool !== undefined) hooked.register(withHooks(tool, hooks, options));
  }
  return hooked;
}

function withHooks(tool: Tool, hooks: HookSet, options: HookOptions): Tool {
  const report = (message: string) => options.onDiagnostic?.({ source: tool.name, message });
  return {
    ...tool,
    async execute(args, context) {
      const call: HookCall = { name: tool.name, arguments: args };
      // Lab 12.5 ①：按顺序问每个 before 钩子：decide(() => hook(call, { signal: context.signal }), options, context)（钩子只拿到 { signal }，不是整个 context）。
      // 允许就问下一个；第一个拒绝就定了（后面的不再问）：decision.failure 有值时先 report() 一行
      // `第 ${index + 1} 个 before 钩子${failure}，${tool.name} 的调用被拒绝（失败即拒绝）`（普通的拒绝不 report），然后抛出
      // `Call to tool "${tool.name}" was denied: ${reason}`：executeToolCall 把它配成错误结果，核心工具不运行。
      // Lab 12.5 ②：都允许了才运行核心工具 tool.execute(args, context)；它抛错就没有 output：错误照样抛出去，after
      // 钩子不运行。拿到 output 之后每个 after 钩子恰好调用一次
      // (call, output)；它抛错只 report() 一行 `第 ${index + 1} 个 after 钩子出错（结果不变）：…`，
      // 后面的 after 钩子照样运行（每个钩子各自 try）。返回 output 本身。
      throw new Error("Lab 12.5 工具钩子 尚未实现");
    },
  };
}

/** A hook's answer; `failure` says how a hook failed when it did not answer properly. */
type Decision = { allow: true } | { allow: false; reason: string; failure?: string };

/** One hook's decision: a throw, a malformed answer, no answer in time or an abort all deny. */
async function decide(run: () => unknown, options: HookOptions, context: ToolHookContext): Promise<Decision> {
  // Lab 12.5 ③：失败即拒绝。限时是 options.beforeTimeoutMs ?? DEFAULT_BEFORE_TIMEOUT_MS（用 ??，不用 ||：0 也是限时；Infinity 表示不限时：
  // 那就不设计时器，setTimeout 不接受 Infinity，会在 1 ms 后就触发）。
  // 让 Promise.race() 在两者之间选先到的：钩子的答复 Promise.resolve().then(run).then(checked)，与一个在限时到了
  // （failed(`在 ${limit} ms 内没有答复`)）或 context.signal 中止时（failed("还没有答复，运行就被中止了")，已经
  // 中止的信号立刻算）给出拒绝的 Promise。钩子抛错是 failed(`抛出了错误：${errorMessageOf(error)}`)。
  // 无论怎样结束，都清掉计时器、移除 abort 监听：一个悬着的计时器会让进程不退出。
  throw new Error("Lab 12.5 工具钩子 尚未实现");
}

/** `undefined` and `{ allow: true }` allow, `{ allow: false, reason }` denies, anything else is a failure. */
function checked(answer: unknown): Decision {
  if (answer === undefined) return { allow: true };
  const { allow, reason } = (typeof answer === "object" && answer !== null ? answer : {}) as Record<string, unknown>;
  if (allow === true) return { allow: true };
  if (allow === false && typeof reason === "string") return { allow: false, reason };
  return failed(`返回了 ${JSON.stringify(answer)}，不是 { allow: true } 或 { allow: false, reason }`);
}

function failed(failure: string): Decision {
  return { allow: false, reason: "a permission check failed, so the call was not run", failure };
}
