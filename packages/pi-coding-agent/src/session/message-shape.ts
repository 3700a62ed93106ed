// The shape of a message entry's payload: our @pi/core messages, which are also Pi's user,
// assistant and toolResult messages. Fields Pi adds (api, provider, model, a wider usage) are
// kept as they are; Pi's own roles (bashExecution, custom, branchSummary, compactionSummary) and
// content blocks we do not run on (thinking, image) are named, never guessed at.
type Json = Record<string, unknown>;

const STOP_REASONS = new Set(["stop", "toolUse", "length", "error", "aborted"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textBlockProblem(block: unknown, where: string): string | undefined {
  if (!isObject(block)) return `${where} 不是对象`;
  if (block.type !== "text") return `${where} 的类型 ${JSON.stringify(block.type)} 不是 text`;
  return typeof block.text === "string" ? undefined : `${where}.text 不是字符串`;
}

function blocksProblem(content: unknown, where: string, toolCalls: boolean): string | undefined {
  if (!Array.isArray(content)) return `${where} 不是数组`;
  for (const [index, block] of content.entries()) {
    const at = `${where}[${index}]`;
    if (toolCalls && isObject(block) && block.type === "toolCall") {
      if (typeof block.id !== "string" || block.id === "") return `${at}.id 不是非空字符串`;
      if (typeof block.name !== "string" || block.name === "") return `${at}.name 不是非空字符串`;
      if (!isObject(block.arguments)) return `${at}.arguments 不是对象`;
      continue;
    }
    const problem = textBlockProblem(block, at);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The first thing wrong with `value` as a message (a JSON copy), or undefined when it is one. */
export function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "message 不是对象";
  if (typeof value.timestamp !== "number") return "message.timestamp 不是数字";
  switch (value.role) {
    case "user":
      return typeof value.content === "string" ? undefined : blocksProblem(value.content, "message.content", false);
    case "assistant":
      if (typeof value.stopReason !== "string" || !STOP_REASONS.has(value.stopReason)) {
        return `message.stopReason ${JSON.stringify(value.stopReason)} 不是 stop、toolUse、length、error 或 aborted`;
      }
      if (value.errorMessage !== undefined && typeof value.errorMessage !== "string") {
        return "message.errorMessage 不是字符串";
      }
      return blocksProblem(value.content, "message.content", true);
    case "toolResult":
      if (typeof value.toolCallId !== "string" || value.toolCallId === "") return "message.toolCallId 不是非空字符串";
      if (typeof value.toolName !== "string") return "message.toolName 不是字符串";
      if (typeof value.isError !== "boolean") return "message.isError 不是布尔值";
      return blocksProblem(value.content, "message.content", false);
    default:
      return `消息角色 ${JSON.stringify(value.role)} 不是 user、assistant 或 toolResult`;
  }
}
