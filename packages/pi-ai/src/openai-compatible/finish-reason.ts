// finish_reason → how the turn ends.

export type FinishOutcome = { reason: "stop" | "toolUse" | "length" } | { error: string };

export function mapFinishReason(finishReason: string | undefined): FinishOutcome {
  switch (finishReason) {
    case "stop":
      return { reason: "stop" };
    case "tool_calls":
      return { reason: "toolUse" };
    case "length":
      return { reason: "length" };
    case undefined:
      return { error: "no finish_reason: the stream ended before the server finished the answer" };
    case "content_filter":
      return { error: 'finish_reason "content_filter": the server\'s content filter stopped the answer' };
    default:
      return { error: `finish_reason ${JSON.stringify(finishReason)}: not one of stop, tool_calls, length` };
  }
}
