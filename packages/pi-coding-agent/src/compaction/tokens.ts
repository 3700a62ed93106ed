// How many tokens a message costs in the context. Where the provider reported `usage` for an
// assistant turn, that count is exact for what the model wrote (`usage.output`); everything else
// (user text, tool results, a scripted turn) is estimated, because the course carries no
// tokenizer. The estimate is ASCII characters / 4 plus one token per other UTF-16 unit, plus a
// fixed overhead per message: the guide measures how far it is from a real count.
import type { Message } from "@pi/core";

export const CHARS_PER_TOKEN = 4;
/** The role and separators every message costs in a chat request, beyond its text. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** ASCII runs at about 4 characters a token; CJK and other scripts at about one a character. */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) < 0x80) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / CHARS_PER_TOKEN) + other;
}

/** The provider's count for an assistant turn that has one, the estimate otherwise. */
export function estimateTokens(message: Message): number {
  if (message.role === "assistant" && message.usage !== undefined && message.usage.output > 0) {
    return MESSAGE_OVERHEAD_TOKENS + message.usage.output;
  }
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  if (typeof message.content === "string") return tokens + estimateTextTokens(message.content);
  if (message.role === "toolResult") tokens += estimateTextTokens(message.toolName);
  for (const block of message.content) {
    tokens +=
      block.type === "text"
        ? estimateTextTokens(block.text)
        : estimateTextTokens(block.name) + estimateTextTokens(JSON.stringify(block.arguments));
  }
  return tokens;
}
