// Checkpoint 05 · 学习脚手架（6 个教学文件的第 1 个）：canonical 消息 → Chat Completions 的线上消息。类型与函数签名已经写好；
// Lab 5.1 的四个函数体先抛出“尚未实现”。完成 `// Lab 5.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/ai
//   node --test --test-name-pattern="出站转换" packages/pi-ai/dist/test/05-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import type { AssistantMessage, Message, TextContent, ToolResultMessage } from "@pi/core";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from "openai/resources/chat/completions";
import type { ResolvedOptions } from "./options.js";

type Compat = ResolvedOptions["compat"];

function joinText(content: string | TextContent[]): string {
  // Lab 5.1 ①：字符串原样返回；TextContent[] 把每段的 text 用 "\n" 连接起来。
  throw new Error("Lab 5.1 把 canonical 消息转换成线上角色 尚未实现");
}

/** An assistant turn with no text and no calls (an aborted or failed one) is left out: servers reject it. */
function assistantParam(message: AssistantMessage, compat: Compat): ChatCompletionAssistantMessageParam | undefined {
  // Lab 5.1 ②：text 块用 "\n" 连成 content；每个 toolCall 变成
  // { id, type: "function", function: { name, arguments: JSON.stringify(arguments) } }（arguments 在线上是字符串）。
  // “有文字”看连起来的 content 是不是 ""（只有 text("") 块也算没有文字）。
  // 没有调用时：有文字返回 { role: "assistant", content }，没有文字返回 undefined（这条 assistant 不发）。
  // 有调用时：返回 { role: "assistant", content, tool_calls }，没有文字时 content 用 compat.emptyAssistantContent。
  throw new Error("Lab 5.1 把 canonical 消息转换成线上角色 尚未实现");
}

function toolParam(message: ToolResultMessage, compat: Compat): ChatCompletionToolMessageParam {
  // Lab 5.1 ③：{ role: "tool", tool_call_id: message.toolCallId, content: joinText(message.content) }；
  // compat.toolResultName 为 true 时再加上 name: message.toolName（SDK 的类型里没有它，需要 as 断言）。
  // details、isError、timestamp 都不上线：它们只属于本地的 transcript。
  throw new Error("Lab 5.1 把 canonical 消息转换成线上角色 尚未实现");
}

export function chatMessages(
  systemPrompt: string | undefined,
  messages: Message[],
  compat: Compat,
): ChatCompletionMessageParam[] {
  // Lab 5.1 ④：返回一个新的数组，不修改 messages 里的任何一条：
  // systemPrompt 不为空时先放 { role: compat.systemRole, content: systemPrompt }；然后按 transcript 的顺序
  // （不按时间戳排序）user → { role: "user", content: joinText(...) }，assistant → assistantParam()（undefined 就跳过），
  // toolResult → toolParam()。
  throw new Error("Lab 5.1 把 canonical 消息转换成线上角色 尚未实现");
}
