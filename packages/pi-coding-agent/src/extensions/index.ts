export { DEFAULT_BEFORE_TIMEOUT_MS, type HookOptions, hookedRegistry } from "./hooks.js";
export { type LoadedExtensions, loadExtensions } from "./load.js";
export type {
  AfterHook,
  BeforeDecision,
  BeforeHook,
  ExtensionApi,
  ExtensionFactory,
  HookCall,
  HookSet,
  ToolHookContext,
} from "./types.js";
