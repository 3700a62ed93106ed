// Checkpoint 06 · 学习脚手架（2 个教学文件的第 2 个）：executeToolCall() 与 toolErrorResult() 的公共表面已经声明；
// 其余各段 Lab 的分支先抛出“尚未实现”。先完成 tools.ts 里的第一段 Lab，再按编号顺序完成这里
// `// Lab 6.N` 注释描述的动作，删除对应的临时错误，然后只运行这一段的测试，例如：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="未知工具" packages/pi-core/dist/test/06-*.test.js
// 不变量：除了 registry 本身的错误，executeToolCall() 对每个 call 都返回恰好一条配对结果，从不 reject。
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/complexity/noUselessCatch: Lab 6.5 ① writes this catch clause.
import { argumentProblem } from "./argument-validation.js";
import { errorMessageOf } from "./errors.js";
import { type TextContent, type ToolCall, type ToolResultMessage, text } from "./messages.js";
import type { ToolExecutionContext, ToolOutput, ToolRegistry } from "./tools.js";

/**
 * Chapter 06: looks the tool up, validates the arguments against its schema,
 * runs it, and returns a result paired to call.id / call.name. An unknown tool,
 * invalid arguments, a throwing tool or malformed output become an isError
 * result (message only, never a stack); it never rejects for those.
 */
export async function executeToolCall(
  call: ToolCall,
  registry: ToolRegistry,
  context: ToolExecutionContext,
): Promise<ToolResultMessage> {
  const tool = registry.get(call.name);
  if (tool === undefined) {
    // Lab 6.2 ①：模型可能请求一个没有登记的名字。不要 throw：用 toolErrorResult() 返回配对的错误结果，
    // 文字是 `Tool "<call.name>" is not registered.`。
    throw new Error("Lab 6.2 未知工具配对为错误 尚未实现");
  }

  const problem = argumentProblem(tool.parameters, call.arguments);
  if (problem !== undefined) {
    // Lab 6.3 ①：argumentProblem() 已经按工具的 JSON Schema 校验了 call.arguments，problem 是校验器给出的原因。
    // Lab 6.3 ②：返回配对的错误结果，文字是 `Invalid arguments for tool "<call.name>": ` 加上 problem；
    // 工具一次也不执行。
    throw new Error("Lab 6.3 参数不合 schema 时配对为错误 尚未实现");
  }

  let output: unknown;
  try {
    // Lab 6.4 ①：执行工具：把 call.arguments 和收到的同一个 context（signal、reportProgress，不复制）交给
    // tool.execute()，用 await 等待它的输出，存进 output。然后删除 notYet()。
    // 漏了 await 时 output 是一个 Promise：它不是 { content }，执行会落进下面 Lab 6.5 的坏输出分支。
    output = notYet("Lab 6.4 执行工具并配对结果 尚未实现");
  } catch (error) {
    // Lab 6.5 ①：工具 reject 或同步抛出时，返回 toolErrorResult(call, errorMessageOf(error))：
    // Error 只留 message，其他值用 String(value)，结果里不能出现 stack。
    throw error;
  }
  if (!isToolOutput(output)) {
    // Lab 6.5 ②：输出不是 { content: TextContent[] } 时也返回配对的错误结果，文字是
    // `Tool "<call.name>" returned malformed output: expected { content: TextContent[] }.`
    throw new Error("Lab 6.5 工具失败也只留一行 尚未实现");
  }
  return pairedResult(call, output);
}

/** The result of a call that ran: the call's id and name, the tool's content, and its details when it gave any. */
function pairedResult(call: ToolCall, output: ToolOutput): ToolResultMessage {
  // Lab 6.4 ②：返回 role "toolResult" 的结果：toolCallId 与 toolName 来自 call，content 来自输出，
  // isError 为 false，timestamp 为 Date.now()。输出带 details 时才写 details 字段，没有就不要这个字段。
  throw new Error("Lab 6.4 执行工具并配对结果 尚未实现");
}

/** Lab 6.4 ① 的占位：写好执行之后删除它（它只让 starter 在 Lab 6.4 之前也能通过类型检查）。 */
function notYet(message: string): unknown {
  throw new Error(message);
}

/** An isError result paired to `call`, carrying one line of text. */
export function toolErrorResult(call: ToolCall, message: string, details?: unknown): ToolResultMessage {
  const result: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [text(message)],
    isError: true,
    timestamp: Date.now(),
  };
  if (details !== undefined) result.details = details;
  return result;
}

function isToolOutput(value: unknown): value is ToolOutput {
  if (typeof value !== "object" || value === null) return false;
  const { content } = value as { content?: unknown };
  return Array.isArray(content) && content.every(isTextContent);
}

function isTextContent(value: unknown): value is TextContent {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as TextContent).type === "text" &&
    typeof (value as TextContent).text === "string"
  );
}
