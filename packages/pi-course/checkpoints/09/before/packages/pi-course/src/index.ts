export {
  type AgentLoopOptions,
  type AgentRunResult,
  type LoopEvent,
  runAgentLoop,
  type ToolExecutor,
} from "./agent-loop.js";
