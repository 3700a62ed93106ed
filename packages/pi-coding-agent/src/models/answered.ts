// Who answered a reply, in Pi's fields of an assistant message (`api`, `provider`, `model`).
import type { AssistantMessage, Message } from "@pi/core";
import { type PhysicalModel, physicalId } from "./catalogue.js";

/** The physical id an assistant message names as its author, when it carries Pi's `provider` and `model`. */
export function answeredBy(message: Message): string | undefined {
  if (message.role !== "assistant") return undefined;
  const fields = message as unknown as { provider?: unknown; model?: unknown };
  if (typeof fields.provider !== "string" || typeof fields.model !== "string") return undefined;
  return physicalId(fields.provider, fields.model);
}

/** Pi's fields naming `model` as the author of a reply. */
export function answererFields(model: PhysicalModel): { api: string; provider: string; model: string } {
  return { api: model.api, provider: model.provider, model: model.modelId };
}

/** `message` marked with who answered it; the rest of it as it was. */
export function markAnswered(message: AssistantMessage, model: PhysicalModel): AssistantMessage {
  return { ...message, ...answererFields(model) } as AssistantMessage;
}

/** The physical id a reply names when it is a choice: an errored or aborted reply is not one. */
export function choiceOf(message: Message): string | undefined {
  return isReply(message) ? answeredBy(message) : undefined;
}

/** An assistant message that is a choice of model: one that neither errored nor was aborted. */
export function isReply(message: Message): boolean {
  return message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted";
}

/** The physical id of the newest reply in `messages` that is a choice. */
export function newestChoice(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const id = choiceOf(messages[index] as Message);
    if (id !== undefined) return id;
  }
  return undefined;
}
