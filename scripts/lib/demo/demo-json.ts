// The same DemoRun as JSON lines for tools: the scenario, each request as it starts, every
// LoopEvent in order, the transcript messages and the result, one object per line.
import type { DemoRun } from "./demo-run.js";

export function jsonLines(run: DemoRun): string[] {
  const lines: unknown[] = [
    {
      kind: "scenario",
      name: run.name,
      title: run.title,
      through: run.through,
      question: run.question,
      ...(run.workspace !== undefined && { workspace: run.workspace }),
    },
  ];
  let announced = 0;
  for (const item of run.events) {
    // A request is announced just before its first event, so the lines read in time order.
    for (; announced < item.request; announced += 1) lines.push(requestLine(run, announced + 1));
    lines.push({ kind: "event", ...item });
  }
  for (; announced < run.requests.length; announced += 1) lines.push(requestLine(run, announced + 1));
  run.result.messages.forEach((message, index) => {
    lines.push({ kind: "message", index, message });
  });
  lines.push({
    kind: "result",
    reason: run.result.reason,
    steps: run.result.steps,
    modelRequests: run.requests.length,
    toolExecutions: run.toolExecutions,
    completionOrder: run.completionOrder,
    transcriptOrder: run.transcriptOrder,
  });
  return lines.map((line) => JSON.stringify(line));
}

function requestLine(run: DemoRun, request: number) {
  const messages = run.requests[request - 1]?.messages ?? [];
  const compaction = run.compactions?.find((each) => each.request === request);
  return {
    kind: "request",
    request,
    roles: messages.map((message) => message.role),
    ...(compaction !== undefined && { compaction }),
  };
}
