import type { AssistantMessage, Message, ToolCall } from "./messages.js";

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's arguments. */
  parameters: object;
}

export interface Context {
  systemPrompt?: string;
  messages: Message[];
  tools?: ToolDefinition[];
}

export interface ModelRequest {
  systemPrompt?: string;
  messages: Message[];
  tools: ToolDefinition[];
  /** "json": the answer must be one JSON object; a provider whose server can be asked for JSON output asks. */
  output?: "json";
}

export interface ModelStreamOptions {
  signal?: AbortSignal;
}

export type ModelEvent =
  | { type: "start" }
  | { type: "text_delta"; delta: string }
  /** JSON text of the call's arguments. */
  | { type: "toolcall_delta"; delta: string }
  | { type: "toolcall_end"; toolCall: ToolCall }
  | { type: "done"; reason: "stop" | "toolUse" | "length" }
  | { type: "error"; reason: "error" | "aborted"; message?: string };

export interface ModelStream extends AsyncIterable<ModelEvent> {
  /** The one complete assistant of this turn. */
  result(): Promise<AssistantMessage>;
}

export interface Model {
  stream(request: ModelRequest, options?: ModelStreamOptions): ModelStream;
}
