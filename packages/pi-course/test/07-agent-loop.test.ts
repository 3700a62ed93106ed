import assert from "node:assert/strict";
import { test } from "node:test";
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
import { type LoopEvent, runAgentLoop, type ToolExecutor } from "../src/agent-loop.js";

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

test("纯文本 stop：一次请求带上 systemPrompt、局部 messages 与 Registry 定义，context 不修改，只有一个 turn_end", async () => {
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

  assert.deepEqual(result, { reason: "stop", messages: [greeting, answer], steps: 1 });
  assert.equal(model.requests.length, 1, "一次纯文本 stop 只请求模型一次");
  assert.deepEqual(model.requests[0], {
    systemPrompt: "你是 tiny-pi。",
    messages: [greeting],
    tools: tools.definitions(),
  });
  assert.equal(model.requestOptions[0]?.signal, controller.signal, "模型请求带上调用者的 signal");
  assert.deepEqual(timeline(events), [
    "model_event(start)",
    "model_event(text_delta)",
    "model_event(done: stop)",
    "assistant_message(stop)",
    "turn_end(stop, steps=1)",
  ]);
  assert.deepEqual(context, before, "调用者的 context 保持原样");
  assert.equal(context.messages.length, 1, "assistant 只进入局部 messages");
  assert.notEqual(result.messages, context.messages);
  assert.notEqual(result.messages[0], context.messages[0], "局部 messages 是深拷贝");
  assert.notEqual(result.messages[0]?.content, context.messages[0]?.content, "深拷贝：消息内的 content 也不共享");
});

// ---------------------------------------------------------------------------
// Lab 7.2 · 单工具往返
// ---------------------------------------------------------------------------

test("单工具往返：call-1 执行一次，配对结果进入第二次请求，transcript 为 user → assistant → toolResult → assistant", async () => {
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

  assert.equal(result.reason, "stop");
  assert.equal(result.steps, 2);
  assert.equal(model.requests.length, 2, "模型请求 2 次");
  assert.equal(probe.executions.length, 1, "工具执行 1 次");
  assert.deepEqual(probe.executions[0]?.args, { note: "README.md" });
  assert.equal(probe.executions[0]?.signal, controller.signal, "executor 收到调用者的 signal");
  assert.equal(roles(result.messages), "user → assistant → toolResult → assistant");

  const readResult = resultsOf(result.messages)[0];
  assert.ok(readResult);
  const expected = await executeToolCall(readCall, probe.tools, {});
  assert.deepEqual(untimed(readResult), untimed(expected), "默认 executor 即第 06 章的 executeToolCall");
  assert.equal(readResult.toolCallId, "call-1");

  const secondRequest = model.requests[1];
  assert.ok(secondRequest);
  assert.equal(roles(secondRequest.messages), "user → assistant → toolResult");
  assert.deepEqual(secondRequest.messages[2], readResult, "第二次请求看到 call-1 的配对结果");
  assert.equal(secondRequest.systemPrompt, "你是 tiny-pi。");
  assert.deepEqual(secondRequest.tools, probe.tools.definitions());
  assert.equal(model.requestOptions[1]?.signal, controller.signal);

  assert.deepEqual(timeline(events), [
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
  ]);
  const progress = events.find((event) => event.type === "tool_progress");
  assert.deepEqual(progress, { type: "tool_progress", callId: "call-1", content: [text("probing README.md")] });
  const toolEnd = events.find((event) => event.type === "tool_end");
  assert.deepEqual(toolEnd, { type: "tool_end", result: readResult });
  assert.deepEqual(context, before, "调用者的 context 保持原样");
});

// ---------------------------------------------------------------------------
// Lab 7.3 · 非执行终态
// ---------------------------------------------------------------------------

test("非执行终态：length 截断的两个调用都不执行，各得一条 skipped 结果", async () => {
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
  assert.equal(result.reason, "length");
  assert.equal(result.steps, 1);
  assert.equal(model.requests.length, 1);
  assert.equal(roles(result.messages), "user → assistant → toolResult → toolResult");
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
  );
  assert.deepEqual(timeline(events).slice(-4), [
    "assistant_message(length)",
    "tool_skipped(call-1)",
    "tool_skipped(call-2)",
    "turn_end(length, steps=1)",
  ]);
  assert.ok(!events.some((event) => event.type === "tool_start" || event.type === "tool_end"));
  assert.equal(turnEnds(events).length, 1);
});

test("非执行终态：表中每一行都不启动 executor，已有调用全部配对，并以正确 reason 结束", async () => {
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
    assert.equal(result.reason, row.reason, `${label}：reason`);
    assert.equal(result.steps, 1, `${label}：steps`);
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
    assert.equal(turnEnds(events).length, 1, `${label}：唯一 turn_end`);
    assert.deepEqual(events.at(-1), { type: "turn_end", reason: row.reason, steps: 1 }, `${label}：turn_end 最后`);
  }
});

// ---------------------------------------------------------------------------
// Lab 7.4 · 并发工具
// ---------------------------------------------------------------------------

test("并发工具：fast 先结束，tool_end 按完成顺序，transcript 与下一次请求仍按 slow、fast 排列", async () => {
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
    // Only once both are running does fast finish; slow waits for fast's tool_end.
    if (entered.length === 2) gates["fast-call"].open();
    await gates[call.id as keyof typeof gates].opened;
    return okResult(call, `${call.id} done`);
  };

  const result = await runAgentLoop({
    model,
    context: { messages: [question] },
    tools: probeTool().tools,
    executeToolCall: execute,
    onEvent: (event) => {
      onEvent(event);
      if (event.type === "tool_end" && event.result.toolCallId === "fast-call") gates["slow-call"].open();
    },
  });

  assert.deepEqual(entered, ["slow-call", "fast-call"], "两个 executor 按声明顺序同时启动");
  const toolTimeline = timeline(events).filter((line) => line.startsWith("tool_"));
  assert.deepEqual(
    toolTimeline,
    [
      "tool_start(slow-call)",
      "tool_start(fast-call)",
      "tool_progress(slow-call)",
      "tool_progress(fast-call)",
      "tool_end(fast-call)",
      "tool_end(slow-call)",
    ],
    "tool_start 全部先于 tool_end；tool_end 反映完成顺序",
  );
  for (const event of events) {
    if (event.type === "tool_progress") {
      assert.deepEqual(event.content, [text(`${event.callId} running`)], "每条进度绑定到报告它的调用");
    }
  }
  assert.equal(roles(result.messages), "user → assistant → toolResult → toolResult → assistant");
  assert.deepEqual(
    resultsOf(result.messages).map((message) => message.toolCallId),
    ["slow-call", "fast-call"],
    "transcript 按调用声明顺序",
  );
  assert.deepEqual(
    resultsOf(model.requests[1]?.messages ?? []).map((message) => message.toolCallId),
    ["slow-call", "fast-call"],
    "第二次请求按调用声明顺序看到结果",
  );
  assert.equal(result.reason, "stop");
  assert.equal(turnEnds(events).length, 1);
});

test("并发工具：injected executor 的 rejection 变成配对错误结果，同批正常结果保留", async () => {
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
  });

  assert.equal(result.reason, "stop", "单项失败不结束运行");
  assert.equal(model.requests.length, 2);
  const [ok, broken, odd] = resultsOf(result.messages);
  assert.deepEqual(ok, okResult(okCall, "fine result"), "同批正常结果原样保留");
  assert.ok(broken && odd);
  assert.deepEqual([broken.toolCallId, broken.toolName, broken.isError], ["broken-call", "probe", true]);
  assert.match(firstText(broken), /disk offline/, "错误结果保留 error.message");
  assert.doesNotMatch(firstText(broken), /\n\s+at /, "不写入 stack");
  assert.deepEqual([odd.toolCallId, odd.toolName, odd.isError], ["odd-call", "probe", true]);
  assert.match(firstText(odd), /plain string failure/, "非 Error 的 rejection 用 String(value)");
  assert.deepEqual(
    events
      .filter((event) => event.type === "tool_end")
      .map((event) => event.result.toolCallId)
      .sort(),
    ["broken-call", "odd-call", "ok-call"],
    "被 reject 的调用也有 tool_end",
  );
  assert.deepEqual(resultsOf(model.requests[1]?.messages ?? []), [ok, broken, odd]);
});

// ---------------------------------------------------------------------------
// Lab 7.5 · 取消与上限
// ---------------------------------------------------------------------------

test("取消与上限：预取消不请求模型，返回 aborted 与 steps 0，保留输入 user message", async () => {
  const controller = new AbortController();
  controller.abort();
  const model = new ScriptedModel([unreachableTurn]);
  const context: Context = { messages: [question] };
  const { events, onEvent } = recordEvents();

  const result = await runAgentLoop({ model, context, tools: probeTool().tools, signal: controller.signal, onEvent });

  assert.equal(model.requests.length, 0, "模型请求 0 次");
  assert.deepEqual(result, { reason: "aborted", messages: [question], steps: 0 });
  assert.notEqual(result.messages[0], context.messages[0]);
  assert.deepEqual(events, [{ type: "turn_end", reason: "aborted", steps: 0 }]);
});

test("取消与上限：工具执行中取消，等待工具返回并保留结果，不再请求模型（最后一步也是 aborted）", async () => {
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

    assert.equal(probe.executions.length, 1, `${label}：当前工具执行完`);
    assert.equal(probe.executions[0]?.signal?.aborted, true, `${label}：工具收到的 signal 已取消`);
    assert.equal(model.requests.length, 1, `${label}：第二次 model.stream() 没有开始`);
    assert.equal(result.reason, "aborted", `${label}：工具批次后的取消检查先于 maxSteps`);
    assert.equal(result.steps, 1, `${label}：steps 等于已完成的模型请求数`);
    assert.equal(roles(result.messages), "user → assistant → toolResult");
    assert.equal(resultsOf(result.messages)[0]?.toolCallId, "call-1");
    assert.equal(turnEnds(events).length, 1, `${label}：唯一 turn_end`);
    assert.deepEqual(events.at(-1), { type: "turn_end", reason: "aborted", steps: 1 });
  }
});

test("取消与上限：maxSteps 1 仍执行第一批工具，结果停在 toolResult，reason 为 maxSteps", async () => {
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

  assert.equal(result.reason, "maxSteps");
  assert.equal(result.steps, 1);
  assert.equal(model.requests.length, 1, "模型请求 1 次");
  assert.equal(probe.executions.length, 1, "最后一批工具仍执行");
  assert.equal(roles(result.messages), "user → assistant → toolResult");
  assert.equal(resultsOf(result.messages)[0]?.toolCallId, "call-1");
  assert.deepEqual(timeline(events).slice(-3), [
    "tool_progress(call-1)",
    "tool_end(call-1)",
    "turn_end(maxSteps, steps=1)",
  ]);
  assert.equal(turnEnds(events).length, 1);
});
