import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type AssistantMessage,
  assistantMessage,
  type Context,
  executeToolCall,
  type Message,
  ScriptedModel,
  type TextContent,
  type Tool,
  type ToolCall,
  ToolRegistry,
  type ToolResultMessage,
  text,
  userMessage,
} from "@pi/core";
import type { LoopEvent, ToolExecutor } from "../src/agent-loop.js";

// ---------------------------------------------------------------------------
// Before the results: say where this run stands, and map stack traces to the .ts lines.
// ---------------------------------------------------------------------------

const TEST_TIMEOUT_MS = 5_000;
const BUILD_COMMAND = "npm run build -w @pi/course";
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const treeRoot = path.resolve(packageDir, "../..");

/** One line when this is the course repository's reference loop rather than a practice tree. */
function referenceWarning(): string | undefined {
  if (process.env.PI_COURSE_SUITE === "1") return undefined; // the repository's own `npm test`
  try {
    const { name } = JSON.parse(readFileSync(path.join(treeRoot, "package.json"), "utf8")) as { name?: unknown };
    if (name !== "pi-course") return undefined;
  } catch {
    return undefined;
  }
  return "你在课程仓库根目录运行聚焦测试：这里是参考实现（target），不是你的练习。请先 cd practice/07（或你的练习目录）。";
}

/**
 * One line naming the build command when a source file differs from what was compiled: each
 * source map carries the source it was made from (inlineSources), so a save without a rebuild,
 * or a build that failed and wrote nothing (noEmitOnError), shows whatever the file times say.
 */
function staleBuildWarning(): string | undefined {
  for (const folder of ["src", "test"]) {
    for (const entry of readdirSync(path.join(packageDir, folder), { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".ts")) continue;
      const source = path.join(packageDir, folder, entry);
      const map = path.join(packageDir, "dist", folder, entry.replace(/\.ts$/, ".js.map"));
      if (compiledSource(map) === readFileSync(source, "utf8")) continue;
      const shown = path.relative(treeRoot, source).split(path.sep).join("/");
      return `${shown} 和上一次成功的构建不一样：下面的结果来自旧的编译输出。先运行 ${BUILD_COMMAND}（修好它报告的错误），再运行测试。`;
    }
  }
  return undefined;
}

function compiledSource(map: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(map, "utf8")) as { sourcesContent?: string[] }).sourcesContent?.[0];
  } catch {
    return undefined;
  }
}

for (const line of [referenceWarning(), staleBuildWarning()]) if (line !== undefined) console.log(line);
// Source maps apply to modules loaded after this line: the loop is imported below, not above.
process.setSourceMapsEnabled(true);
const { runAgentLoop } = await import("../src/agent-loop.js");

// ---------------------------------------------------------------------------
// Helpers: they let each test read like the chapter's timelines.
// ---------------------------------------------------------------------------

const question = userMessage("请读取 README.md，并告诉我项目名。", 1);

/** A second turn a correct loop never requests: with it, a wrong loop fails on what it did, not on the script. */
const unreachableTurn = assistantMessage([text("不该出现的第二轮")], "stop", 9);

function probeCall(id: string, note: string): ToolCall {
  return { type: "toolCall", id, name: "probe", arguments: { note } };
}

/**
 * The `probe` tool: echoes its note, reports progress once, and records every
 * execution with the signal it was handed. `during` runs inside the execution.
 */
function probeTool(during?: (args: Record<string, unknown>) => void) {
  const executions: { args: Record<string, unknown>; signal: AbortSignal | undefined }[] = [];
  const tool: Tool = {
    name: "probe",
    description: "Echoes its note and reports progress.",
    parameters: {
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
      additionalProperties: false,
    },
    async execute(args, context) {
      executions.push({ args, signal: context.signal });
      context.reportProgress?.([text(`probing ${String(args.note)}`)]);
      during?.(args);
      return { content: [text(`probe saw ${String(args.note)}`)], details: { note: args.note } };
    },
  };
  return { tool, executions, tools: new ToolRegistry().register(tool) };
}

/** An executor that must never run: it counts the calls it was handed. */
function countingExecutor() {
  const calls: ToolCall[] = [];
  const execute: ToolExecutor = async (call) => {
    calls.push(call);
    return okResult(call, "executed");
  };
  return { execute, calls };
}

function okResult(call: ToolCall, output: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [text(output)],
    isError: false,
    timestamp: 3,
  };
}

/** A promise the test opens by hand: no sleeps, no timers. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function recordEvents() {
  const events: LoopEvent[] = [];
  return { events, onEvent: (event: LoopEvent) => events.push(event) };
}

/** Each event as one line of the chapter's timelines, e.g. `tool_end(call-1)`. */
function timeline(events: LoopEvent[]): string[] {
  return events.map(timelineLine);
}

function timelineLine(event: LoopEvent): string {
  switch (event.type) {
    case "model_event": {
      const inner = event.event;
      if (inner.type === "done" || inner.type === "error") return `model_event(${inner.type}: ${inner.reason})`;
      if (inner.type === "toolcall_end") return `model_event(toolcall_end: ${inner.toolCall.id})`;
      return `model_event(${inner.type})`;
    }
    case "assistant_message":
      return `assistant_message(${event.message.stopReason})`;
    case "tool_start":
      return `tool_start(${event.call.id})`;
    case "tool_progress":
      return `tool_progress(${event.callId})`;
    case "tool_end":
      return `tool_end(${event.result.toolCallId})`;
    case "tool_skipped":
      return `tool_skipped(${event.result.toolCallId})`;
    case "turn_end":
      return `turn_end(${event.reason}, steps=${event.steps})`;
  }
}

function roles(messages: Message[]): string {
  return messages.map((message) => message.role).join(" → ");
}

function turnEnds(events: LoopEvent[]): LoopEvent[] {
  return events.filter((event) => event.type === "turn_end");
}

/** A message with its timestamp zeroed, for comparing results made at run time. */
function untimed<T extends { timestamp: number }>(message: T): T {
  return { ...message, timestamp: 0 };
}

function resultsOf(messages: Message[]): ToolResultMessage[] {
  return messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

function firstText(message: { content: (TextContent | ToolCall)[] | string }): string {
  const block = typeof message.content === "string" ? undefined : message.content[0];
  return block?.type === "text" ? block.text : "";
}

// ---------------------------------------------------------------------------
// Lab 7.1 · 纯文本 stop
// ---------------------------------------------------------------------------

test("纯文本 stop：一次请求带上 systemPrompt、局部 messages 与 Registry 定义，context 不修改，只有一个 turn_end", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const staleDefinition = { name: "stale", description: "from context.tools", parameters: {} };
  const greeting = userMessage([text("你好，")], 1);
  const context: Context = { systemPrompt: "你是 tiny-pi。", messages: [greeting], tools: [staleDefinition] };
  const before = structuredClone(context);
  const answer = assistantMessage([text("你好，我是 tiny-pi。")], "stop", 2);
  const model = new ScriptedModel([answer, unreachableTurn]);
  const { tools } = probeTool();
  const controller = new AbortController();
  const { events, onEvent } = recordEvents();

  const result = await runAgentLoop({ model, context, tools, signal: controller.signal, onEvent });

  assert.equal(model.requests.length, 1, "stop 之后不再请求模型：纯文本 stop 只请求一次");
  assert.deepEqual(
    model.requests[0],
    { systemPrompt: "你是 tiny-pi。", messages: [greeting], tools: tools.definitions() },
    "请求带上 systemPrompt、局部 messages 与 Registry 的 tool definitions（不是 context.tools）",
  );
  assert.equal(model.requestOptions[0]?.signal, controller.signal, "模型请求带上调用者的 signal");
  assert.equal(roles(result.messages), "user → assistant", "每条 assistant 只追加一次");
  assert.deepEqual(
    result,
    { reason: "stop", messages: [greeting, answer], steps: 1 },
    "stop 返回 reason、messages 与 steps",
  );
  assert.equal(turnEnds(events).length, 1, "只有一个 turn_end：所有返回路径都经过 finish()");
  assert.deepEqual(
    timeline(events),
    [
      "model_event(start)",
      "model_event(text_delta)",
      "model_event(done: stop)",
      "assistant_message(stop)",
      "turn_end(stop, steps=1)",
    ],
    "事件顺序：每个模型事件包成 model_event，之后 assistant_message，最后 turn_end",
  );
  assert.deepEqual(context, before, "调用者的 context 保持原样");
  assert.equal(context.messages.length, 1, "assistant 只进入局部 messages");
  assert.notEqual(result.messages, context.messages, "局部 messages 是深拷贝：不是调用者的数组");
  assert.notEqual(result.messages[0], context.messages[0], "局部 messages 是深拷贝");
  assert.notEqual(result.messages[0]?.content, context.messages[0]?.content, "深拷贝：消息内的 content 也不共享");
});

// ---------------------------------------------------------------------------
// Lab 7.2 · 单工具往返
// ---------------------------------------------------------------------------

test("单工具往返：call-1 执行一次，配对结果进入第二次请求，transcript 为 user → assistant → toolResult → assistant", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const readCall = probeCall("call-1", "README.md");
  const firstAnswer = assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2);
  const finalAnswer = assistantMessage([text("项目名是 tiny-pi。")], "stop", 4);
  const model = new ScriptedModel([firstAnswer, finalAnswer]);
  const probe = probeTool();
  const context: Context = { systemPrompt: "你是 tiny-pi。", messages: [question] };
  const before = structuredClone(context);
  const controller = new AbortController();
  const { events, onEvent } = recordEvents();

  const result = await runAgentLoop({ model, context, tools: probe.tools, signal: controller.signal, onEvent });

  assert.equal(
    model.requests.length,
    2,
    "toolUse + calls 执行后继续循环：工具结果追加之后 continue，发起第二次模型请求（模型请求 2 次）",
  );
  assert.equal(probe.executions.length, 1, "每个调用只执行一次：工具执行 1 次");
  assert.deepEqual(probe.executions[0]?.args, { note: "README.md" }, "executor 收到 call 本身");
  assert.equal(probe.executions[0]?.signal, controller.signal, "executor 收到调用者的 signal");
  assert.equal(
    roles(result.messages),
    "user → assistant → toolResult → assistant",
    "每条 assistant 只追加一次，工具结果紧跟它的 assistant",
  );
  assert.equal(result.reason, "stop", "第二轮纯文本 stop 以 stop 结束");
  assert.equal(result.steps, 2, "steps 计数已完成的请求");

  const readResult = resultsOf(result.messages)[0];
  assert.ok(readResult, "call-1 的结果进入 messages");
  const expected = await executeToolCall(readCall, probe.tools, {});
  assert.deepEqual(untimed(readResult), untimed(expected), "默认 executor 即第 06 章的 executeToolCall");
  assert.equal(readResult.toolCallId, "call-1", "结果与调用配对：toolCallId 是 call-1");

  const secondRequest = model.requests[1];
  assert.ok(secondRequest, "第二次模型请求已经发出");
  assert.equal(
    roles(secondRequest.messages),
    "user → assistant → toolResult",
    "第二次请求看到 user、assistant 与 toolResult",
  );
  assert.deepEqual(secondRequest.messages[2], readResult, "第二次请求看到 call-1 的配对结果");
  assert.equal(secondRequest.systemPrompt, "你是 tiny-pi。", "每次请求都带上 systemPrompt");
  assert.deepEqual(secondRequest.tools, probe.tools.definitions(), "每次请求都带上 Registry 的 tool definitions");
  assert.equal(model.requestOptions[1]?.signal, controller.signal, "每次请求都带上调用者的 signal");

  const progress = events.filter((event) => event.type === "tool_progress");
  assert.deepEqual(
    progress,
    [{ type: "tool_progress", callId: "call-1", content: [text("probing README.md")] }],
    "进度带着报告它的调用的 id",
  );
  assert.equal(turnEnds(events).length, 1, "只有一个 turn_end");
  assert.deepEqual(
    timeline(events),
    [
      "model_event(start)",
      "model_event(text_delta)",
      "model_event(toolcall_delta)",
      "model_event(toolcall_end: call-1)",
      "model_event(done: toolUse)",
      "assistant_message(toolUse)",
      "tool_start(call-1)",
      "tool_progress(call-1)",
      "tool_end(call-1)",
      "model_event(start)",
      "model_event(text_delta)",
      "model_event(done: stop)",
      "assistant_message(stop)",
      "turn_end(stop, steps=2)",
    ],
    "事件顺序：assistant_message 之后 tool_start → tool_progress → tool_end，再开始第二轮",
  );
  const toolEnds = events.filter((event) => event.type === "tool_end");
  assert.deepEqual(toolEnds, [{ type: "tool_end", result: readResult }], "每个调用恰有一个 tool_end，携带完整结果");
  assert.deepEqual(context, before, "调用者的 context 保持原样");
});

// ---------------------------------------------------------------------------
// Lab 7.3 · 非执行终态
// ---------------------------------------------------------------------------

test("非执行终态：length 截断的两个调用都不执行，各得一条 skipped 结果", { timeout: TEST_TIMEOUT_MS }, async () => {
  const calls = [probeCall("call-1", "README.md"), probeCall("call-2", "package.json")];
  const truncated = assistantMessage([text("我先读取"), ...calls], "length", 2);
  const model = new ScriptedModel([truncated, unreachableTurn]);
  const executor = countingExecutor();
  const { events, onEvent } = recordEvents();

  const result = await runAgentLoop({
    model,
    context: { messages: [question] },
    tools: probeTool().tools,
    executeToolCall: executor.execute,
    onEvent,
  });

  assert.equal(executor.calls.length, 0, "executionCount = 0：截断的调用不进入 executor");
  assert.equal(model.requests.length, 1, "非执行终态不再请求模型");
  assert.equal(result.reason, "length", "length 以 length 结束");
  assert.equal(result.steps, 1, "steps 计数已完成的请求");
  assert.equal(
    roles(result.messages),
    "user → assistant → toolResult → toolResult",
    "每个已有调用一条 skipped 结果，assistant 只追加一次",
  );
  assert.deepEqual(
    resultsOf(result.messages).map(untimed),
    calls.map((call) => ({
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: [text("Tool call was not executed because the model response was truncated.")],
      details: { skipped: true, reason: "length" },
      isError: true,
      timestamp: 0,
    })),
    "skipped 结果保留调用的 id 与 name，content 是 length 的说明，details 为 { skipped: true, reason }",
  );
  assert.equal(turnEnds(events).length, 1, "只有一个 turn_end");
  assert.ok(
    !events.some((event) => event.type === "tool_start" || event.type === "tool_end"),
    "未执行的调用没有 tool_start 与 tool_end",
  );
  assert.deepEqual(
    timeline(events).slice(-4),
    ["assistant_message(length)", "tool_skipped(call-1)", "tool_skipped(call-2)", "turn_end(length, steps=1)"],
    "每条 skipped 结果伴随一个 tool_skipped，最后是 turn_end",
  );
});

test("非执行终态：表中每一行都不启动 executor，已有调用全部配对，并以正确 reason 结束", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const calls = [probeCall("call-1", "a"), probeCall("call-2", "b")];
  const rows: {
    answer: AssistantMessage;
    reason: string;
    skipReason?: string;
  }[] = [
    { answer: assistantMessage([text("完毕")], "stop", 2), reason: "stop" },
    { answer: assistantMessage([text("写到一半")], "length", 2), reason: "length" },
    { answer: assistantMessage([text("出错了")], "error", 2), reason: "error" },
    { answer: assistantMessage([], "aborted", 2), reason: "aborted" },
    { answer: assistantMessage([...calls], "length", 2), reason: "length", skipReason: "length" },
    { answer: assistantMessage([...calls], "error", 2), reason: "error", skipReason: "error" },
    { answer: assistantMessage([...calls], "aborted", 2), reason: "aborted", skipReason: "aborted" },
    { answer: assistantMessage([text("好了"), ...calls], "stop", 2), reason: "error", skipReason: "unexpected-stop" },
    { answer: assistantMessage([text("我要用工具")], "toolUse", 2), reason: "error" },
  ];

  for (const row of rows) {
    const label = `${row.answer.stopReason} + ${row.answer.content.length} 块`;
    const model = new ScriptedModel([row.answer, unreachableTurn]);
    const executor = countingExecutor();
    const { events, onEvent } = recordEvents();

    const result = await runAgentLoop({
      model,
      context: { messages: [question] },
      tools: probeTool().tools,
      executeToolCall: executor.execute,
      onEvent,
    });

    assert.equal(executor.calls.length, 0, `${label}：executor 调用 0 次`);
    assert.equal(result.reason, row.reason, `${label}：按章节的五行表结束，reason 应为 ${row.reason}`);
    assert.equal(result.steps, 1, `${label}：steps 计数已完成的请求`);
    assert.equal(model.requests.length, 1, `${label}：不再请求模型`);
    const skipped = resultsOf(result.messages);
    const declared = row.answer.content.filter((block) => block.type === "toolCall");
    const expectedSkips = row.skipReason === undefined ? [] : declared;
    assert.deepEqual(
      skipped.map((result) => [result.toolCallId, result.toolName, result.isError, result.details]),
      expectedSkips.map((call) => [call.id, call.name, true, { skipped: true, reason: row.skipReason }]),
      `${label}：每个已有调用一条 skipped 结果`,
    );
    assert.deepEqual(
      events.filter((event) => event.type === "tool_skipped").map((event) => event.result),
      skipped,
      `${label}：每条 skipped 结果伴随一个 tool_skipped`,
    );
    const stopReason = row.answer.stopReason;
    const modelEnd = stopReason === "error" || stopReason === "aborted" ? "error" : "done";
    assert.equal(
      timeline(events)
        .filter((line) => line.startsWith("model_event"))
        .at(-1),
      `model_event(${modelEnd}: ${stopReason})`,
      `${label}：模型的结束事件也转发给观察者`,
    );
    assert.equal(turnEnds(events).length, 1, `${label}：只有一个 turn_end`);
    assert.deepEqual(events.at(-1), { type: "turn_end", reason: row.reason, steps: 1 }, `${label}：turn_end 最后`);
  }
});

// ---------------------------------------------------------------------------
// Lab 7.4 · 并发工具
// ---------------------------------------------------------------------------

test("并发工具：fast 先结束，tool_end 按完成顺序，transcript 与下一次请求仍按 slow、fast 排列", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const slowCall = probeCall("slow-call", "slow");
  const fastCall = probeCall("fast-call", "fast");
  const model = new ScriptedModel([
    assistantMessage([slowCall, fastCall], "toolUse", 2),
    assistantMessage([text("两个都完成了。")], "stop", 4),
  ]);
  const gates = { "slow-call": gate(), "fast-call": gate() };
  const entered: string[] = [];
  const { events, onEvent } = recordEvents();
  const execute: ToolExecutor = async (call, context) => {
    entered.push(call.id);
    context.reportProgress?.([text(`${call.id} running`)]);
    // Only once both are running does fast finish. Slow finishes one macrotask after fast returned:
    // every microtask has run by then, so fast's own tool_end has been emitted if it is emitted on completion.
    if (entered.length === 2) gates["fast-call"].open();
    await gates[call.id as keyof typeof gates].opened;
    if (call.id === "fast-call") setImmediate(() => gates["slow-call"].open());
    return okResult(call, `${call.id} done`);
  };

  const result = await runAgentLoop({
    model,
    context: { messages: [question] },
    tools: probeTool().tools,
    executeToolCall: execute,
    onEvent,
  });

  assert.deepEqual(entered, ["slow-call", "fast-call"], "整批调用同时启动，按声明顺序进入 executor");
  const progress = events.filter((event) => event.type === "tool_progress");
  assert.deepEqual(
    progress.map((event) => [event.callId, firstText(event)]),
    [
      ["slow-call", "slow-call running"],
      ["fast-call", "fast-call running"],
    ],
    "进度带着报告它的调用的 id：每个调用的 reportProgress 绑定它自己的 call.id",
  );
  assert.deepEqual(
    timeline(events).filter((line) => line.startsWith("tool_start") || line.startsWith("tool_end")),
    ["tool_start(slow-call)", "tool_start(fast-call)", "tool_end(fast-call)", "tool_end(slow-call)"],
    "tool_start 全部先于 tool_end；每个调用完成时立即发出自己的 tool_end（反映完成顺序）",
  );
  assert.deepEqual(
    resultsOf(result.messages).map((message) => message.toolCallId),
    ["slow-call", "fast-call"],
    "transcript 按调用声明顺序（Promise.all 的结果顺序），不是完成顺序",
  );
  assert.equal(
    roles(result.messages),
    "user → assistant → toolResult → toolResult → assistant",
    "每条 assistant 只追加一次，整批结果在下一次请求之前追加",
  );
  assert.deepEqual(
    resultsOf(model.requests[1]?.messages ?? []).map((message) => message.toolCallId),
    ["slow-call", "fast-call"],
    "第二次请求按调用声明顺序看到结果",
  );
  assert.equal(result.reason, "stop", "第二轮纯文本 stop 以 stop 结束");
  assert.equal(turnEnds(events).length, 1, "只有一个 turn_end");
});

test("并发工具：injected executor 的 rejection 变成配对错误结果，同批正常结果保留", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const okCall = probeCall("ok-call", "fine");
  const brokenCall = probeCall("broken-call", "boom");
  const oddCall = probeCall("odd-call", "odd");
  const model = new ScriptedModel([
    assistantMessage([okCall, brokenCall, oddCall], "toolUse", 2),
    assistantMessage([text("有一个工具失败了。")], "stop", 4),
  ]);
  const failure = new Error("disk offline");
  const { events, onEvent } = recordEvents();
  const execute: ToolExecutor = async (call) => {
    if (call.id === "broken-call") throw failure;
    if (call.id === "odd-call") throw "plain string failure";
    return okResult(call, "fine result");
  };

  const result = await runAgentLoop({
    model,
    context: { messages: [question] },
    tools: probeTool().tools,
    executeToolCall: execute,
    onEvent,
  }).catch((error: unknown) =>
    assert.fail(
      `executor 的 rejection 变成配对的 isError 结果，而不是让 runAgentLoop reject（runAgentLoop 以 ${String(error)} 拒绝了；try/catch 只接得住 try 里 await 过的 rejection）`,
    ),
  );

  assert.equal(result.reason, "stop", "单项失败不结束运行");
  assert.equal(model.requests.length, 2, "单项失败之后仍请求下一轮模型");
  const [ok, broken, odd] = resultsOf(result.messages);
  assert.deepEqual(ok, okResult(okCall, "fine result"), "同批正常结果原样保留");
  assert.ok(broken && odd, "被 reject 的调用也有配对结果");
  assert.deepEqual(
    [broken.toolCallId, broken.toolName, broken.isError],
    ["broken-call", "probe", true],
    "executor 的 rejection 变成配对的 isError 结果：相同的 toolCallId 与 toolName",
  );
  assert.equal(
    firstText(broken),
    "Tool execution failed: disk offline",
    "错误结果只留 error.message（errorMessageOf(error)）：不是 String(error) 的 “Error: …”，也不写入 stack",
  );
  assert.doesNotMatch(firstText(broken), /\n\s+at /, "不写入 stack");
  assert.deepEqual(
    [odd.toolCallId, odd.toolName, odd.isError],
    ["odd-call", "probe", true],
    "非 Error 的 rejection 同样变成配对的 isError 结果",
  );
  assert.match(firstText(odd), /plain string failure/, "非 Error 的 rejection 用 String(value)");
  assert.deepEqual(
    events
      .filter((event) => event.type === "tool_end")
      .map((event) => event.result.toolCallId)
      .sort(),
    ["broken-call", "odd-call", "ok-call"],
    "被 reject 的调用也有 tool_end",
  );
  assert.deepEqual(
    resultsOf(model.requests[1]?.messages ?? []),
    [ok, broken, odd],
    "第二次请求按调用声明顺序看到全部结果",
  );
});

// ---------------------------------------------------------------------------
// Lab 7.5 · 取消与上限
// ---------------------------------------------------------------------------

test("取消与上限：预取消不请求模型，返回 aborted 与 steps 0，保留输入 user message", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const controller = new AbortController();
  controller.abort();
  const model = new ScriptedModel([unreachableTurn]);
  const context: Context = { messages: [question] };
  const { events, onEvent } = recordEvents();

  const result = await runAgentLoop({ model, context, tools: probeTool().tools, signal: controller.signal, onEvent });

  assert.equal(model.requests.length, 0, "模型请求前检查 signal：预取消时模型请求 0 次");
  assert.equal(result.reason, "aborted", "预取消以 aborted 结束");
  assert.equal(result.steps, 0, "steps 计数已完成的请求：预取消时是 steps - 1 = 0");
  assert.deepEqual(result, { reason: "aborted", messages: [question], steps: 0 }, "预取消保留输入 user message");
  assert.notEqual(result.messages[0], context.messages[0], "局部 messages 是深拷贝");
  assert.deepEqual(
    events,
    [{ type: "turn_end", reason: "aborted", steps: 0 }],
    "只有一个 turn_end：预取消只发出 turn_end(aborted, steps=0)",
  );
});

test("取消与上限：工具执行中取消，等待工具返回并保留结果，不再请求模型（最后一步也是 aborted）", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  for (const maxSteps of [undefined, 1]) {
    const label = `maxSteps=${String(maxSteps)}`;
    const controller = new AbortController();
    const probe = probeTool(() => controller.abort());
    const readCall = probeCall("call-1", "README.md");
    const model = new ScriptedModel([assistantMessage([readCall], "toolUse", 2), unreachableTurn]);
    const { events, onEvent } = recordEvents();

    const result = await runAgentLoop({
      model,
      context: { messages: [question] },
      tools: probe.tools,
      signal: controller.signal,
      maxSteps,
      onEvent,
    });

    assert.equal(
      model.requests.length,
      1,
      `${label}：恰好一次 model.stream()：maxSteps=1 也发出第一次请求（循环条件是 steps <= maxSteps），工具后的取消让第二次不开始`,
    );
    assert.equal(probe.executions.length, 1, `${label}：当前工具执行完`);
    assert.equal(probe.executions[0]?.signal?.aborted, true, `${label}：工具收到的 signal 已取消`);
    assert.equal(result.reason, "aborted", `${label}：工具批次后的取消检查先于 maxSteps`);
    assert.equal(result.steps, 1, `${label}：steps 计数已完成的请求：工具后的取消以当前 steps 结束`);
    assert.equal(roles(result.messages), "user → assistant → toolResult", `${label}：已经形成的工具结果保留`);
    assert.equal(resultsOf(result.messages)[0]?.toolCallId, "call-1", `${label}：结果与 call-1 配对`);
    assert.equal(turnEnds(events).length, 1, `${label}：只有一个 turn_end`);
    assert.deepEqual(
      events.at(-1),
      { type: "turn_end", reason: "aborted", steps: 1 },
      `${label}：最后是 turn_end(aborted, steps=1)`,
    );
  }
});

test("取消与上限：maxSteps 1 仍执行第一批工具，结果停在 toolResult，reason 为 maxSteps", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const readCall = probeCall("call-1", "README.md");
  const model = new ScriptedModel([
    assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2),
    assistantMessage([text("项目名是 tiny-pi。")], "stop", 4),
  ]);
  const probe = probeTool();
  const { events, onEvent } = recordEvents();

  const result = await runAgentLoop({
    model,
    context: { messages: [question] },
    tools: probe.tools,
    maxSteps: 1,
    onEvent,
  });

  assert.equal(model.requests.length, 1, "maxSteps 限制模型请求次数：maxSteps 1 只请求 1 次");
  assert.equal(probe.executions.length, 1, "最后一批工具仍执行");
  assert.equal(result.reason, "maxSteps", "循环用完仍未结束时以 maxSteps 结束");
  assert.equal(result.steps, 1, "steps 计数已完成的请求：maxSteps 结束时是 maxSteps");
  assert.equal(roles(result.messages), "user → assistant → toolResult", "最后一批工具结果留在 messages 里");
  assert.equal(resultsOf(result.messages)[0]?.toolCallId, "call-1", "结果与 call-1 配对");
  assert.equal(turnEnds(events).length, 1, "只有一个 turn_end");
  assert.deepEqual(
    timeline(events).slice(-3),
    ["tool_progress(call-1)", "tool_end(call-1)", "turn_end(maxSteps, steps=1)"],
    "最后一批工具结束后发出 turn_end(maxSteps, steps=1)",
  );
});
