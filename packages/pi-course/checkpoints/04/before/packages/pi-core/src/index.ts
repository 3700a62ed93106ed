export {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type StopReason,
  type TextContent,
  type ToolCall,
  type ToolResultMessage,
  text,
  toolCallsOf,
  type UserMessage,
  userMessage,
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
export { PushModelStream } from "./model-stream.js";
