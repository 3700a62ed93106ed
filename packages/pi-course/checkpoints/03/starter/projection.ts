// Checkpoint 03 · 学习脚手架（2 个教学文件的第 2 个）：projectText() 与它的辅助函数已经声明；Lab 3.2 与 Lab 3.3 的函数体
// 先抛出“尚未实现”。每完成一段 Lab，删除它的临时错误，只运行这一段的测试：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="文本投影" packages/pi-core/dist/test/03-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and helpers unused until written.
import type { AssistantMessage, Message, TextContent } from "./messages.js";

/**
 * The transcript as text for a person: one line per message. It is lossy on purpose (tool
 * arguments, details, timestamps and every line of a result but the first are dropped), so it is
 * never read back as messages; the canonical messages stay the only record.
 */
export function projectText(messages: readonly Message[]): string {
  return messages.map(projectLine).join("\n");
}

function projectLine(message: Message): string {
  // Lab 3.2 投影：switch (message.role)，每种消息一行，只读不写：
  //   user → `user: <文字>`（content 是字符串就原样用，是块数组就用 joined() 连起来）；
  //   assistant → `${assistantHead(message)}: ` 加上每个块：text 块写文字，调用写 `[<name> <id>]`，块之间一个空格；
  //   toolResult → `toolResult <toolCallId>`，isError 时加 ` (error)`，再加 `: ` 与 firstLine(joined(content))。
  // 三个 case 都 return，Message 的三种 role 就穷尽了，不需要 default。
  throw new Error("Lab 3.2 把 transcript 投影成文字 尚未实现");
}

/** `assistant`, or for a turn that ended in error or aborted, that state and its diagnostic. */
function assistantHead(message: AssistantMessage): string {
  if (message.stopReason !== "error" && message.stopReason !== "aborted") return "assistant";
  // Lab 3.3 终态：error 与 aborted 是终态，不是普通回答：返回 `assistant (<stopReason>)`，
  // 有 errorMessage 字段时（!== undefined，空字符串也算）括号里写成 `<stopReason>: <errorMessage>`，诊断留在投影里。
  throw new Error("Lab 3.3 让 error 终态出现在投影里 尚未实现");
}

function joined(content: readonly TextContent[]): string {
  return content.map((block) => block.text).join("");
}

function firstLine(value: string): string {
  const [first = "", ...rest] = value.split("\n");
  return rest.length > 0 ? `${first} …` : first;
}
