export {
  type AssistantMessage,
  type Message,
  type StopReason,
  type TextContent,
  type ToolCall,
  type ToolResultMessage,
  toolCallsOf,
  type UserMessage,
} from "./messages.js";
export type {
  Context,
  Model,
  ModelEvent,
  ModelRequest,
  ModelStream,
  ModelStreamOptions,
  ToolDefinition,
} from "./model.js";
