// Given (not a lab): what an extension sees, and the hooks it can add around every tool call.
import type { Tool, ToolCall, ToolOutput } from "@pi/core";

/** What a hook sees of a call: a registry's tool is given the name and arguments, not the call's id. */
export type HookCall = Pick<ToolCall, "name" | "arguments">;

export interface ToolHookContext {
  signal?: AbortSignal;
}

export type BeforeDecision = { allow: true } | { allow: false; reason: string };

/** Runs before the core tool; `undefined` means "no opinion" (allowed unless another hook denies). */
export type BeforeHook = (
  call: HookCall,
  context: ToolHookContext,
) => BeforeDecision | undefined | Promise<BeforeDecision | undefined>;

/** Runs once after the core tool returned `output`; it can observe, never replace it. */
export type AfterHook = (call: HookCall, output: ToolOutput) => void | Promise<void>;

export interface ExtensionApi {
  registerTool(tool: Tool): void;
  before(hook: BeforeHook): void;
  after(hook: AfterHook): void;
}

/** An extension module's default export. */
export type ExtensionFactory = (api: ExtensionApi) => void | Promise<void>;

export interface HookSet {
  before: BeforeHook[];
  after: AfterHook[];
}
