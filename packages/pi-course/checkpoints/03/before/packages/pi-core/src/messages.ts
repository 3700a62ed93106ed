export interface TextContent {
  type: "text";
  text: string;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type StopReason = "stop" | "toolUse" | "length" | "error" | "aborted";

export interface UserMessage {
  role: "user";
  content: string | TextContent[];
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ToolCall)[];
  stopReason: StopReason;
  timestamp: number;
  errorMessage?: string;
  /** Tokens of this turn, when the provider reported them (a scripted turn has none). */
  usage?: { input: number; output: number };
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: TextContent[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** The tool calls of an assistant, in the order the model declared them. */
export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}
