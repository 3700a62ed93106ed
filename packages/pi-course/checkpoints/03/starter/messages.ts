// Checkpoint 03 · 学习脚手架（2 个教学文件的第 1 个）：canonical 消息的类型与 toolCallsOf() 来自第 00 章；Lab 3.1 的三个
// 构造函数先抛出“尚未实现”。完成 `// Lab 3.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="消息 IR" packages/pi-core/dist/test/03-*.test.js
// biome-ignore-all lint/correctness: the unfinished lab leaves parameters unused until written.
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

export function text(value: string): TextContent {
  // Lab 3.1 ①：一个 text 块只有两个字段：{ type: "text", text: value }。
  throw new Error("Lab 3.1 构造 canonical 消息 尚未实现");
}

export function userMessage(content: string | TextContent[], timestamp: number = Date.now()): UserMessage {
  // Lab 3.1 ②：{ role: "user", content, timestamp }：content 原样放进去（字符串或块数组都行），内容不改写；
  // 不必复制它：构造函数只把字段放对，数组的归属仍在调用者手里。
  throw new Error("Lab 3.1 构造 canonical 消息 尚未实现");
}

export function assistantMessage(
  content: (TextContent | ToolCall)[],
  stopReason: StopReason,
  timestamp: number = Date.now(),
): AssistantMessage {
  // Lab 3.1 ③：{ role: "assistant", content, stopReason, timestamp }：不要写 errorMessage 或 usage 字段
  // （值为 undefined 的字段也算一个字段，deepEqual 与 "errorMessage" in message 都看得见它）。
  throw new Error("Lab 3.1 构造 canonical 消息 尚未实现");
}

/** The tool calls of an assistant, in the order the model declared them. */
export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}
