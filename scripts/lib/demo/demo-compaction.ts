// The compaction scenario: tiny-pi's own compaction path (chapter 13's Runtime, whose context
// adapter sends every request through chapter 11's buildContext, with tiny-pi's Compactor as its
// compact hook) on the embedded scripted model,
// which answers a summarisation request with a summary taken from what it was sent. Two earlier
// interactions sit in an in-memory session; the new question reads a README too big to leave them
// all in the window, so between the read and the answer one summarisation request is sent, the
// `compaction` entry is appended, and the last request starts from the summary.
import {
  createWorkspaceTools,
  InMemorySessionStore,
  loopEngine,
  messageEntry,
  newHeader,
  openRuntime,
  type Runtime,
  wireRuntime,
} from "@pi/coding-agent";
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
import { readmeRoundTripModel } from "../../../packages/pi-coding-agent/src/cli/embedded-model.js";
import { Compactor } from "../../../packages/pi-coding-agent/src/host/compactor.js";
import type { CompactionEntry } from "../../../packages/pi-coding-agent/src/session/entries.js";
import type { DemoCompaction, DemoEvent, DemoRun } from "./demo-run.js";
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
    const session = new InMemorySessionStore(newHeader(workspace));
    const before = history();
    let leaf: string | null = null;
    for (const message of before) {
      const entry = messageEntry(message, leaf);
      await session.append(entry);
      leaf = entry.id;
    }
    const compactions: DemoCompaction[] = [];
    let runtime: Runtime | undefined;
    const notes = {
      write(line: string) {
        const entry = runtime?.compaction
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
    const compactor = new Compactor({ model: sent, window: DEMO_WINDOW, notes });
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
    const parts = await wireRuntime({ tools, systemPrompt: "" });
    runtime = openRuntime({
      session,
      ...(leaf !== null ? { leaf } : {}),
      model: sent,
      parts,
      engine: loopEngine(runAgentLoop),
      window: { tokens: DEMO_WINDOW.tokens, reserve: DEMO_WINDOW.reserve },
      compact: compactor.hook,
      code: { buildContext: compactor.buildContext },
    });
    const events: DemoEvent[] = [];
    runtime.subscribe((event) => {
      if (event.type === "system_prompt" || event.type === "agent_start" || event.type === "agent_end") return;
      if (event.type === "retry" || event.type === "queued") return;
      const callId = callIdOf(event);
      events.push({
        seq: events.length + 1,
        request: requests.length,
        ...(callId !== undefined && { callId }),
        event,
      });
    });
    const result = await runtime.prompt(userMessage(question, 5));
    await runtime.dispose();
    const keptEntry = runtime.compaction.path().find((entry) => entry.id === compactions[0]?.firstKeptEntryId);
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
      entries: runtime.compaction.path(),
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
