// The chapter 07 situations the demo plays through the real runAgentLoop, each on the
// ScriptedModel with in-memory tools; chapter 08's README round trip with the real workspace
// tools in a temp workspace; chapter 09's through the real Agent. Each is recorded as a DemoRun
// that the printers turn into text or JSON.

import { createWorkspaceTools } from "@pi/coding-agent";
import {
  type AssistantMessage,
  assistantMessage,
  executeToolCall,
  ScriptedModel,
  type Tool,
  type ToolCall,
  ToolRegistry,
  text,
  userMessage,
} from "@pi/core";
import {
  Agent,
  type AgentEvent,
  type AgentRunResult,
  type LoopEvent,
  runAgentLoop,
  type ToolExecutor,
} from "@pi/course";
import { compactionRun } from "./demo-compaction.js";
import type { DemoEvent, DemoRun, ScenarioName } from "./demo-run.js";
import { withDemoWorkspace } from "./demo-workspace.js";

interface ScenarioSetup {
  title: string;
  chapterNote: string;
  /** The user's request; the README question unless the situation needs another. */
  question?: string;
  turns: AssistantMessage[];
  /** The tools, or a function making them for the temp workspace made from `workspaceFiles`. */
  tools: Tool[] | ((workspace: string) => Tool[]);
  /** Files of a real temp workspace for the run; it is removed afterwards. */
  workspaceFiles?: Record<string, string>;
  /** An injected executor, given the run's registry so it can delegate to chapter 06's executeToolCall. */
  executeToolCall?: (tools: ToolRegistry) => ToolExecutor;
  signal?: AbortSignal;
  maxSteps?: number;
  /** Sees each event after it is recorded: used to open gates, never to change the run. */
  observe?: (event: LoopEvent) => void;
  /** Plays the run through chapter 09's Agent instead of runAgentLoop, seated here for the tools to reach. */
  agent?: AgentSeat;
}

/** Where a scenario's tools find the Agent that runs them. */
interface AgentSeat {
  agent?: Agent;
}

/** Counts real executions: a tool's execute() body, or the injected executor's invocations. */
interface ExecutionCounter {
  count: number;
}

const question = "请读取 README.md，并告诉我项目名。";
const readmeText = "# tiny-pi\nA small agent runtime.";
const readCall: ToolCall = { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } };
const firstAnswer = assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2);
const finalAnswer = assistantMessage([text("项目名是 tiny-pi。")], "stop", 4);

/** The chapter's in-memory `read`: always returns the README, never touches the disk. */
function readTool(counter: ExecutionCounter, during?: () => void): Tool {
  return {
    name: "read",
    description: "Returns the in-memory README.md of the demo workspace.",
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "Path of the file to read." } },
      required: ["path"],
      additionalProperties: false,
    },
    async execute(args) {
      counter.count += 1;
      during?.();
      if (args.path !== "README.md") throw new Error(`${String(args.path)} 不在内存工作区中`);
      return { content: [text(readmeText)] };
    },
  };
}

/** `tool` as it is, counting its executions. */
function counted(tool: Tool, counter: ExecutionCounter): Tool {
  return {
    ...tool,
    execute(args, context) {
      counter.count += 1;
      return tool.execute(args, context);
    },
  };
}

/** A promise opened by hand, so the demo controls completion order without timers. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const emptySchema = { type: "object", properties: {}, additionalProperties: false };

const scenarios: Record<Exclude<ScenarioName, "compaction">, (counter: ExecutionCounter) => ScenarioSetup> = {
  readme: (counter) => ({
    title: "README 往返：一次请求怎样调用模型两次",
    chapterNote: "toolUse + 调用：执行 call-1，结果写回 messages，再请求第二轮模型，以 stop 结束",
    turns: [firstAnswer, finalAnswer],
    tools: [readTool(counter)],
  }),

  length: (counter) => ({
    title: "length：工具不启动，调用仍然闭合",
    chapterNote: "length + 调用：executor 0 次，为每个已有调用写入 skipped 工具结果，finish(length, 1)",
    turns: [assistantMessage([text("我先读取项目说明。"), readCall], "length", 2)],
    tools: [readTool(counter)],
  }),

  "stop-with-calls": (counter) => ({
    title: "stop + 工具调用：写入 unexpected-stop 结果",
    chapterNote: "stop + 至少一个调用：executor 0 次，为每个调用写入 unexpected-stop 工具结果，finish(error, 1)",
    turns: [assistantMessage([text("项目名大概是 tiny-pi。"), readCall], "stop", 2)],
    tools: [readTool(counter)],
  }),

  concurrent: (counter) => {
    const slowDone = gate();
    const slow: Tool = {
      name: "slow",
      description: "Finishes only after the fast call has ended.",
      parameters: emptySchema,
      async execute(_args, context) {
        counter.count += 1;
        context.reportProgress?.([text("等待 fast 先完成")]);
        await slowDone.opened;
        return { content: [text("slow 完成")] };
      },
    };
    const fast: Tool = {
      name: "fast",
      description: "Finishes at once.",
      parameters: emptySchema,
      async execute() {
        counter.count += 1;
        return { content: [text("fast 完成")] };
      },
    };
    const calls: ToolCall[] = [
      { type: "toolCall", id: "slow-call", name: "slow", arguments: {} },
      { type: "toolCall", id: "fast-call", name: "fast", arguments: {} },
    ];
    return {
      title: "多个工具同时运行，结果仍按工具调用顺序追加",
      question: "同时运行 slow 和 fast 两个工具。",
      chapterNote: "tool_end 反映完成顺序（fast 先），transcript 与下一次请求保持声明顺序（slow、fast）",
      turns: [assistantMessage(calls, "toolUse", 2), assistantMessage([text("两个都完成了。")], "stop", 4)],
      tools: [slow, fast],
      observe: (event) => {
        if (event.type === "tool_end" && event.result.toolCallId === "fast-call") slowDone.open();
      },
    };
  },

  "executor-rejects": (counter) => {
    const changelogCall: ToolCall = {
      type: "toolCall",
      id: "call-2",
      name: "read",
      arguments: { path: "CHANGELOG.md" },
    };
    return {
      title: "注入的 executor reject：单项失败变成配对错误结果",
      question: "请读取 README.md 和 CHANGELOG.md。",
      chapterNote: "call-2 的 rejection 变成同 id 的 isError 结果（只留 message），同批 call-1 的结果保留",
      turns: [
        assistantMessage([text("我同时读取两个文件。"), readCall, changelogCall], "toolUse", 2),
        assistantMessage([text("项目名是 tiny-pi；CHANGELOG.md 读取失败。")], "stop", 4),
      ],
      tools: [readTool({ count: 0 })],
      executeToolCall: (tools) => async (call, context) => {
        counter.count += 1;
        if (call.id === "call-2") throw new Error("disk offline");
        return executeToolCall(call, tools, context);
      },
    };
  },

  "abort-before": (counter) => {
    const controller = new AbortController();
    controller.abort();
    return {
      title: "预取消：不发起模型请求",
      chapterNote: "请求前已取消：模型请求 0 次，finish(aborted, 0)，输入 user message 仍在结果中",
      turns: [firstAnswer, finalAnswer],
      tools: [readTool(counter)],
      signal: controller.signal,
    };
  },

  "abort-after-tool": (counter) => {
    const controller = new AbortController();
    return {
      title: "read 执行期间取消：保留结果，不再请求模型",
      chapterNote: "工具批次结束并追加 toolResult 后检查 signal：finish(aborted, 1)，第二次 model.stream() 不开始",
      turns: [firstAnswer, finalAnswer],
      // The abort lands while read runs, as a user pressing Ctrl-C would.
      tools: [readTool(counter, () => controller.abort())],
      signal: controller.signal,
    };
  },

  agent: (counter) => {
    const seat: AgentSeat = {};
    return {
      title: "Agent：read 执行期间 steer 一句、followUp 一句",
      chapterNote:
        "steer 在 read 的结果之后、请求 2 之前进入 transcript；请求 2 以 stop 结束时 followUp 作为新的一步运行（请求 3）",
      turns: [
        firstAnswer,
        assistantMessage([text("tiny-pi")], "stop", 6),
        assistantMessage([text("它是一个小型 agent 运行时。")], "stop", 8),
      ],
      // The user types two lines while read runs, as in tiny-pi's REPL.
      tools: [
        readTool(counter, () => {
          seat.agent?.steer("只回答项目名，不要解释。");
          seat.agent?.followUp("再用一句话说说它是做什么的。");
        }),
      ],
      agent: seat,
    };
  },

  "max-steps": (counter) => ({
    title: "maxSteps: 1：结果停在 toolResult",
    chapterNote: "第一轮仍执行 read，之后达到上限：finish(maxSteps, 1)，没有最终 assistant",
    turns: [firstAnswer, finalAnswer],
    tools: [readTool(counter)],
    maxSteps: 1,
  }),

  workspace: (counter) => ({
    title: "第 08 章：真实 workspace 里的 README 往返",
    chapterNote:
      "runAgentLoop 不变：内存 read 换成 createWorkspaceTools() 的 read、write、edit、bash，call-1 的结果来自临时 workspace 里的 README.md",
    turns: [firstAnswer, finalAnswer],
    workspaceFiles: { "README.md": `${readmeText}\n` },
    tools: (workspace) => createWorkspaceTools(workspace).map((tool) => counted(tool, counter)),
  }),
};

/** Plays one scenario through runAgentLoop and records everything the printers show. */
export async function runScenario(name: ScenarioName): Promise<DemoRun> {
  if (name === "compaction") return compactionRun();
  const counter: ExecutionCounter = { count: 0 };
  const setup = scenarios[name](counter);
  const { tools } = setup;
  if (typeof tools !== "function") return playScenario(name, setup, tools, counter);
  return withDemoWorkspace(setup.workspaceFiles ?? {}, async (workspace) => ({
    ...(await playScenario(name, setup, tools(workspace), counter)),
    workspace,
  }));
}

async function playScenario(
  name: ScenarioName,
  setup: ScenarioSetup,
  scenarioTools: Tool[],
  counter: ExecutionCounter,
): Promise<DemoRun> {
  const model = new ScriptedModel(setup.turns);
  const tools = new ToolRegistry();
  for (const tool of scenarioTools) tools.register(tool);
  const events: DemoEvent[] = [];
  const asked = setup.question ?? question;

  const record = (event: AgentEvent) => {
    const callId = callIdOf(event) ?? (event.type === "queued" ? running : undefined);
    events.push({
      seq: events.length + 1,
      request: model.requests.length,
      ...(callId !== undefined && { callId }),
      event,
    });
    if (event.type === "tool_start") running = event.call.id;
    if (event.type === "tool_end") running = undefined;
  };
  let running: string | undefined;
  const result = setup.agent
    ? await runAgent(setup, setup.agent, model, tools, asked, record)
    : await runAgentLoop({
        model,
        context: { messages: [userMessage(asked, 1)] },
        tools,
        ...(setup.executeToolCall && { executeToolCall: setup.executeToolCall(tools) }),
        ...(setup.signal && { signal: setup.signal }),
        ...(setup.maxSteps !== undefined && { maxSteps: setup.maxSteps }),
        onEvent: (event) => {
          record(event);
          setup.observe?.(event);
        },
      });

  return {
    name,
    title: setup.title,
    chapterNote: setup.chapterNote,
    through: setup.agent ? "Agent" : "runAgentLoop",
    question: asked,
    requests: model.requests,
    events,
    result,
    toolExecutions: counter.count,
    completionOrder: events.flatMap(({ event }) => (event.type === "tool_end" ? [event.result.toolCallId] : [])),
    transcriptOrder: result.messages.flatMap((message) => (message.role === "toolResult" ? [message.toolCallId] : [])),
  };
}

/** The Agent's run of the scenario: one prompt, its events recorded like the loop's. */
function runAgent(
  setup: ScenarioSetup,
  seat: AgentSeat,
  model: ScriptedModel,
  tools: ToolRegistry,
  asked: string,
  record: (event: AgentEvent) => void,
): Promise<AgentRunResult> {
  const agent = new Agent({ model, tools, ...(setup.maxSteps !== undefined && { maxSteps: setup.maxSteps }) });
  seat.agent = agent;
  agent.subscribe(record);
  return agent.prompt(userMessage(asked, 1));
}

function callIdOf(event: AgentEvent): string | undefined {
  switch (event.type) {
    case "tool_start":
      return event.call.id;
    case "tool_progress":
      return event.callId;
    case "tool_end":
    case "tool_skipped":
      return event.result.toolCallId;
    default:
      return undefined;
  }
}
