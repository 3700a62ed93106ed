export {
  Agent,
  type AgentEvent,
  type AgentListener,
  type AgentOptions,
  type AgentState,
} from "./agent.js";
export {
  type AgentLoopOptions,
  type AgentRunResult,
  type LoopEvent,
  runAgentLoop,
  type ToolExecutor,
} from "./agent-loop.js";
export { isTransientError, type RetryOptions, retryDelay } from "./retry-policy.js";
