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
  switch (message.role) {
    case "user":
      return `user: ${typeof message.content === "string" ? message.content : joined(message.content)}`;
    case "assistant":
      return `${assistantHead(message)}: ${message.content
        .map((block) => (block.type === "text" ? block.text : `[${block.name} ${block.id}]`))
        .join(" ")}`;
    case "toolResult":
      return `toolResult ${message.toolCallId}${message.isError ? " (error)" : ""}: ${firstLine(joined(message.content))}`;
  }
}

/** `assistant`, or for a turn that ended in error or aborted, that state and its diagnostic. */
function assistantHead(message: AssistantMessage): string {
  if (message.stopReason !== "error" && message.stopReason !== "aborted") return "assistant";
  const why = message.errorMessage === undefined ? "" : `: ${message.errorMessage}`;
  return `assistant (${message.stopReason}${why})`;
}

function joined(content: readonly TextContent[]): string {
  return content.map((block) => block.text).join("");
}

function firstLine(value: string): string {
  const [first = "", ...rest] = value.split("\n");
  return rest.length > 0 ? `${first} …` : first;
}
