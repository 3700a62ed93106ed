// Runs one model turn and collects what a consumer of the stream sees.
import type { AssistantMessage, Model, ModelEvent, ModelRequest, ModelStreamOptions } from "@pi/core";

export interface Turn {
  events: ModelEvent[];
  assistant: AssistantMessage;
}

export const README_REQUEST: ModelRequest = {
  systemPrompt: "You are a coding agent.",
  messages: [{ role: "user", content: "What is the project's name? Read README.md.", timestamp: 0 }],
  tools: [
    {
      name: "read",
      description: "Read a file of the workspace.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
};

export async function runTurn(
  model: Model,
  request: ModelRequest = README_REQUEST,
  options?: ModelStreamOptions,
  onEvent?: (event: ModelEvent) => void,
): Promise<Turn> {
  const stream = model.stream(request, options);
  const events: ModelEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  return { events, assistant: await stream.result() };
}

/** The assistant without its timestamp, for comparing two turns. */
export function withoutTimestamp(assistant: AssistantMessage): Omit<AssistantMessage, "timestamp"> {
  const { timestamp: _timestamp, ...rest } = assistant;
  return rest;
}
