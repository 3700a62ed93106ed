// Lab 12.5 · 工具钩子: before hooks that fail closed, after hooks that only observe.
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
      for (const [index, hook] of hooks.before.entries()) {
        const decision = await decide(() => hook(call, { signal: context.signal }), options, context);
        if (decision.allow) continue;
        if (decision.failure !== undefined) {
          report(`第 ${index + 1} 个 before 钩子${decision.failure}，${tool.name} 的调用被拒绝（失败即拒绝）`);
        }
        throw new Error(`Call to tool "${tool.name}" was denied: ${decision.reason}`);
      }
      const output = await tool.execute(args, context);
      for (const [index, hook] of hooks.after.entries()) {
        try {
          await hook(call, output);
        } catch (error) {
          report(`第 ${index + 1} 个 after 钩子出错（结果不变）：${errorMessageOf(error)}`);
        }
      }
      return output;
    },
  };
}

/** A hook's answer; `failure` says how a hook failed when it did not answer properly. */
type Decision = { allow: true } | { allow: false; reason: string; failure?: string };

/** One hook's decision: a throw, a malformed answer, no answer in time or an abort all deny. */
async function decide(run: () => unknown, options: HookOptions, context: ToolHookContext): Promise<Decision> {
  const limit = options.beforeTimeoutMs ?? DEFAULT_BEFORE_TIMEOUT_MS;
  let settle: (decision: Decision) => void = () => {};
  const stopped = new Promise<Decision>((resolve) => {
    settle = resolve;
  });
  const onAbort = () => settle(failed("还没有答复，运行就被中止了"));
  const timer = Number.isFinite(limit)
    ? setTimeout(() => settle(failed(`在 ${limit} ms 内没有答复`)), limit)
    : undefined;
  if (context.signal?.aborted) onAbort();
  else context.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([Promise.resolve().then(run).then(checked), stopped]);
  } catch (error) {
    return failed(`抛出了错误：${errorMessageOf(error)}`);
  } finally {
    clearTimeout(timer);
    context.signal?.removeEventListener("abort", onAbort);
  }
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
