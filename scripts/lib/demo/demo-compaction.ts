// The compaction scenario: tiny-pi's own compaction path (the Compactor and the Model that sends
// every request through it, chapter 11's buildContext underneath) on the embedded scripted model,
// which answers a summarisation request with a summary taken from what it was sent. Two earlier
// interactions sit in an in-memory session; the new question reads a README too big to leave them
// all in the window, so between the read and the answer one summarisation request is sent, the
// `compaction` entry is appended, and the last request starts from the summary.
import { createWorkspaceTools } from "@pi/coding-agent";
import {
  assistantMessage,
  type Message,
  type Model,
  type ModelRequest,
  ToolRegistry,
  text,
  userMessage,
} from "@pi/core";
import { type AgentEvent, runAgentLoop } from "@pi/course";
import { compactingModel } from "../../../packages/pi-coding-agent/src/cli/compacting-model.js";
import { Compactor } from "../../../packages/pi-coding-agent/src/cli/compaction-turn.js";
import { readmeRoundTripModel } from "../../../packages/pi-coding-agent/src/cli/embedded-model.js";
import { sessionRecorder } from "../../../packages/pi-coding-agent/src/cli/session-recorder.js";
import { noSession } from "../../../packages/pi-coding-agent/src/cli/session-store.js";
import type { CompactionEntry } from "../../../packages/pi-coding-agent/src/session/entries.js";
import type { DemoCompaction, DemoEvent, DemoRun } from "./demo-scenarios.js";
import { withDemoWorkspace } from "./demo-workspace.js";

const question = "请读取 README.md，并告诉我项目名。";
/** The window the scenario runs in, in tokens, and what it keeps for the answer. */
export const DEMO_WINDOW = { tokens: 1000, reserve: 100, source: "演示设定" };
const readme = `# tiny-pi\n${"A small agent runtime that keeps its context bounded. ".repeat(22)}\n`;
const earlier = (topic: string) => `${topic}：${"每个调用都和它的结果放在一起，历史只追加、不改写。".repeat(8)}`;

/** Two earlier interactions, as a resumed session would hold them. */
function history(): Message[] {
  return [
    userMessage("第一章讲什么？", 1),
    assistantMessage([text(earlier("第一章"))], "stop", 2),
    userMessage("第二章讲什么？", 3),
    assistantMessage([text(earlier("第二章"))], "stop", 4),
  ];
}

export function compactionRun(): Promise<DemoRun> {
  return withDemoWorkspace({ "README.md": readme }, async (workspace) => {
    const requests: ModelRequest[] = [];
    const embedded = readmeRoundTripModel();
    const sent: Model = {
      stream(request, options) {
        requests.push(structuredClone(request));
        return embedded.stream(request, options);
      },
    };
    const session = noSession();
    const before = history();
    session.append(before);
    const compactions: DemoCompaction[] = [];
    const notes = {
      write(line: string) {
        const entry = session
          .path()
          .filter((item) => item.type === "compaction")
          .at(-1) as CompactionEntry;
        compactions.push({
          request: requests.length,
          line: line.trim(),
          firstKeptEntryId: entry.firstKeptEntryId,
          tokensBefore: entry.tokensBefore,
        });
      },
    };
    const compactor = new Compactor({ model: sent, session, window: DEMO_WINDOW, notes });
    const recorder = sessionRecorder(session, before.length);
    const tools = new ToolRegistry();
    let executions = 0;
    for (const tool of createWorkspaceTools(workspace).filter((each) => each.name === "read")) {
      tools.register({
        ...tool,
        execute(args, context) {
          executions += 1;
          return tool.execute(args, context);
        },
      });
    }
    const events: DemoEvent[] = [];
    const result = await runAgentLoop({
      model: recorder.recording(compactingModel(sent, compactor)),
      context: { messages: [...before, userMessage(question, 5)] },
      tools,
      onEvent: (event) => {
        recorder.onEvent(event);
        const callId = callIdOf(event);
        events.push({
          seq: events.length + 1,
          request: requests.length,
          ...(callId !== undefined && { callId }),
          event,
        });
      },
    });
    recorder.finish(result.messages);
    const keptEntry = session.path().find((entry) => entry.id === compactions[0]?.firstKeptEntryId);
    return {
      name: "compaction",
      title: "上下文压缩：一轮的两步之间，较早的对话换成摘要",
      chapterNote:
        "请求 1 还放得下完整历史；read 的结果之后放不下了：请求 2 是摘要请求，compaction 条目追加进会话，请求 3 从摘要开始，调用与结果仍在一起；loop 的 transcript 不变（第 07 章的 loop 不知道压缩）",
      through: "runAgentLoop",
      question,
      requests,
      events,
      result,
      toolExecutions: executions,
      completionOrder: [],
      transcriptOrder: result.messages.flatMap((message) =>
        message.role === "toolResult" ? [message.toolCallId] : [],
      ),
      workspace,
      entries: session.path(),
      compactions: compactions.map((each) => ({
        ...each,
        firstKept: keptEntry?.type === "message" ? keptEntry.message.role : "?",
      })),
    };
  });
}

function callIdOf(event: AgentEvent): string | undefined {
  if (event.type === "tool_start") return event.call.id;
  if (event.type === "tool_end" || event.type === "tool_skipped") return event.result.toolCallId;
  return undefined;
}
