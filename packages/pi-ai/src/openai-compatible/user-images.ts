// Images in a request. The course's messages hold text; a user message read from a session upstream
// Pi wrote may also carry Pi's content blocks, images included, as `piContent` (tiny-pi's host sets
// it: pi-entries.ts). Such a message is sent as Chat Completions content parts in Pi's order, each
// image an `image_url` data URL, the way Pi's own provider sends it.
import type { Message } from "@pi/core";
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";

type Block = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

function piContent(message: Message): Block[] | undefined {
  if (message.role !== "user") return undefined;
  const blocks = (message as { piContent?: unknown }).piContent;
  return Array.isArray(blocks) ? (blocks as Block[]) : undefined;
}

function part(block: Block): ChatCompletionContentPart {
  return block.type === "image"
    ? { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } }
    : { type: "text", text: block.text };
}

/**
 * `params` (chatMessages' output for `messages`) with each user message that carries `piContent`
 * sent as its parts. Every user message becomes exactly one user param, in order, so the k-th of
 * each side belong together.
 */
export function withUserImages(
  params: ChatCompletionMessageParam[],
  messages: Message[],
): ChatCompletionMessageParam[] {
  const users = messages.filter((message) => message.role === "user");
  if (!users.some((message) => piContent(message) !== undefined)) return params;
  let index = 0;
  return params.map((param) => {
    if (param.role !== "user") return param;
    const blocks = piContent(users[index++] as Message);
    return blocks === undefined ? param : { role: "user", content: blocks.map(part) };
  });
}

/** Whether the request body sends an image. */
export function sendsImages(params: { messages: ChatCompletionMessageParam[] }): boolean {
  return params.messages.some(
    (param) =>
      param.role === "user" && Array.isArray(param.content) && param.content.some((p) => p.type === "image_url"),
  );
}
