export { activePath, contextAdapter, fitRequest, requestBudget } from "./context-adapter.js";
export { agentEngine, loopEngine } from "./engine.js";
export { openRuntime, restoredPath } from "./open.js";
export { createRuntime } from "./runtime.js";
export {
  type CompactHook,
  type CompactionTarget,
  type ContextSource,
  type ContextWindow,
  type EngineFactory,
  type EngineOptions,
  type PromptOptions,
  type Runtime,
  type RuntimeCode,
  type RuntimeCore,
  type RuntimeEngine,
  RuntimeError,
  type RuntimeEvent,
  type RuntimeExtensions,
  type RuntimeListener,
  type RuntimeOptions,
  type RuntimeParts,
  type WireOptions,
} from "./types.js";
export { wireRuntime } from "./wiring.js";
