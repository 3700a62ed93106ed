// Hostile doubles: models and tools that break their side of the protocol. Each test states
// what the loop does about it; together they are the failure semantics of runAgentLoop's doc
// comment. The rules they all keep: every call in the transcript has exactly one paired result
// and the caller's context is untouched; a run that resolves emits one turn_end, last, and a run
// that a model's broken protocol rejects emits none, every call it started already paired.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type Context,
  type Message,
  type Model,
  type ModelEvent,
  type ModelRequest,
  type ModelStream,
  PushModelStream,
  ScriptedModel,
  type ToolCall,
  ToolRegistry,
  type ToolResultMessage,
  text,
  userMessage,
} from "@pi/core";
import { type AgentLoopOptions, type LoopEvent, runAgentLoop, type ToolExecutor } from "../src/agent-loop.js";
import { checkToolEventsPaired } from "./properties/tool-event-pairing.js";

const question = userMessage("请读取 README.md，并告诉我项目名。", 1);
const call = (id: string): ToolCall => ({ type: "toolCall", id, name: "probe", arguments: { note: id } });

function okResult(toolCall: ToolCall): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    content: [text(`ok ${toolCall.id}`)],
    isError: false,
    timestamp: 3,
  };
}

/** Runs the loop with a fresh context and records everything a test observes. */
async function observe(options: Omit<AgentLoopOptions, "context" | "tools" | "onEvent">) {
  const context: Context = { systemPrompt: "你是 tiny-pi。", messages: [question] };
  const before = structuredClone(context);
  const events: LoopEvent[] = [];
  const result = await runAgentLoop({ ...options, context, tools: new ToolRegistry(), onEvent: (e) => events.push(e) });
  assert.deepEqual(context, before, "the caller's context changed");
  assert.deepEqual(
    events.filter((event) => event.type === "turn_end"),
    [{ type: "turn_end", reason: result.reason, steps: result.steps }],
  );
  assert.equal(events.at(-1)?.type, "turn_end", "turn_end is not the last event");
  return { result, events, types: events.map((event) => event.type) };
}

/**
 * Runs a loop that must reject and returns the rejection with everything emitted before it,
 * after checking what holds for every rejected run: the caller's context is deep-equal to
 * before, there is no turn_end, and each tool_start has its tool_end.
 */
async function observeRejection(options: Omit<AgentLoopOptions, "context" | "tools" | "onEvent">) {
  const context: Context = { systemPrompt: "你是 tiny-pi。", messages: [question] };
  const before = structuredClone(context);
  const events: LoopEvent[] = [];
  const error = await runAgentLoop({
    ...options,
    context,
    tools: new ToolRegistry(),
    onEvent: (e) => events.push(e),
  }).then(
    (result) => assert.fail(`the run resolved (${result.reason} after ${result.steps} step(s)) instead of rejecting`),
    (rejection: unknown) => rejection,
  );
  assert.deepEqual(context, before, "the caller's context changed");
  assert.deepEqual(
    events.filter((event) => event.type === "turn_end"),
    [],
    "a rejected run emitted turn_end",
  );
  checkToolEventsPaired(events);
  return { error, events };
}

/** A model that answers each request with whatever `answer` builds for it, and keeps each request's messages. */
function modelOf(answer: (request: number) => ModelStream): Model & { requests: Message[][] } {
  const model = {
    requests: [] as Message[][],
    stream: (request: ModelRequest) => {
      model.requests.push(structuredClone(request.messages));
      return answer(model.requests.length);
    },
  };
  return model;
}

/** A stream that emits `events`, then ends with `final` (or fails with `failure`). */
function streamOf(events: ModelEvent[], final: AssistantMessage | { failure: unknown }): ModelStream {
  const stream = new PushModelStream();
  for (const event of events) stream.push(event);
  if ("failure" in final) stream.fail(final.failure);
  else stream.end(final);
  return stream;
}

test("恶意替身：executor 同步抛出，仍得到配对的 isError 结果与 tool_end，同批其他结果保留，运行继续", async () => {
  const executor: ToolExecutor = (toolCall) => {
    if (toolCall.id === "bad") throw new Error("sync explosion");
    return Promise.resolve(okResult(toolCall));
  };
  const model = new ScriptedModel([
    assistantMessage([call("bad"), call("good")], "toolUse", 2),
    assistantMessage([text("完成")], "stop", 4),
  ]);
  const { result, events } = await observe({ model, executeToolCall: executor });

  assert.equal(result.reason, "stop");
  assert.equal(result.steps, 2);
  const [bad, good] = result.messages.slice(2, 4) as ToolResultMessage[];
  assert.equal(bad?.toolCallId, "bad");
  assert.equal(bad?.isError, true);
  assert.equal(bad?.content[0]?.text, "Tool execution failed: sync explosion");
  assert.deepEqual(good, okResult(call("good")));
  assert.equal(events.filter((event) => event.type === "tool_end").length, 2);
});

test("恶意替身：stream() 直接抛出，运行以同一个错误拒绝，不发任何事件，context 不修改", async () => {
  const failure = new Error("provider unreachable");
  const model = modelOf(() => {
    throw failure;
  });
  const { error, events } = await observeRejection({ model });

  assert.equal(error, failure, "the run did not reject with the model's own error");
  assert.deepEqual(events, []);
  assert.equal(model.requests.length, 1);
});

test("恶意替身：第 2 次请求的流在迭代中途抛出，已收到的事件照常转发后以同一个错误拒绝；没有该轮的 assistant_message 与 turn_end，此前的调用都已配对", async () => {
  const first = assistantMessage([call("call-1"), call("call-2")], "toolUse", 2);
  const firstEvents: ModelEvent[] = [
    { type: "start" },
    { type: "toolcall_end", toolCall: call("call-1") },
    { type: "toolcall_end", toolCall: call("call-2") },
    { type: "done", reason: "toolUse" },
  ];
  const partial = call("half-call");
  const failure = new Error("connection reset");
  const model = modelOf((request) =>
    request === 1
      ? streamOf(firstEvents, first)
      : {
          async *[Symbol.asyncIterator]() {
            yield { type: "start" } as const;
            yield { type: "toolcall_end", toolCall: partial } as const;
            throw failure;
          },
          result: () => Promise.resolve(assistantMessage([partial], "toolUse", 4)),
        },
  );
  const executed: string[] = [];
  const { error, events } = await observeRejection({
    model,
    executeToolCall: async (toolCall) => {
      executed.push(toolCall.id);
      return okResult(toolCall);
    },
  });

  assert.equal(error, failure, "the run did not reject with the stream's own error");
  assert.deepEqual(executed, ["call-1", "call-2"], "the half-streamed call reached the executor");
  assert.deepEqual(events, [
    ...firstEvents.map((event) => ({ type: "model_event", event })),
    { type: "assistant_message", message: first },
    { type: "tool_start", call: call("call-1") },
    { type: "tool_start", call: call("call-2") },
    { type: "tool_end", result: okResult(call("call-1")) },
    { type: "tool_end", result: okResult(call("call-2")) },
    { type: "model_event", event: { type: "start" } },
    { type: "model_event", event: { type: "toolcall_end", toolCall: partial } },
  ]);
  assert.deepEqual(
    model.requests[1],
    [question, first, okResult(call("call-1")), okResult(call("call-2"))],
    "the failed request did not see every earlier call paired",
  );
});

test("恶意替身：result() reject，运行以同一个值拒绝，只转发已收到的事件；signal 已取消时同样拒绝而不是以 aborted 结束", async () => {
  const failure = "no final message";
  const failing = () => streamOf([{ type: "start" }], { failure });
  const plain = await observeRejection({ model: modelOf(failing) });
  assert.equal(plain.error, failure, "the run did not reject with the value result() rejected with");
  assert.deepEqual(plain.events, [{ type: "model_event", event: { type: "start" } }]);

  // A provider that honours the signal: it aborts mid-turn and its stream fails.
  const controller = new AbortController();
  const abortFailure = new Error("request aborted by the caller");
  const honouring = modelOf(() => {
    controller.abort();
    return streamOf([{ type: "start" }], { failure: abortFailure });
  });
  const aborted = await observeRejection({ model: honouring, signal: controller.signal });
  assert.equal(aborted.error, abortFailure, "an aborted signal turned the model's failure into something else");
  assert.deepEqual(aborted.events, [{ type: "model_event", event: { type: "start" } }]);
  assert.equal(honouring.requests.length, 1);
});

test("恶意替身：事件与最终 assistant 不一致时以 result() 为准，内容与 stopReason 不符时按章节表结束", async () => {
  // The events announce a tool call and toolUse; result() is a plain stop: nothing is executed.
  const claimed = call("claimed");
  const liar = modelOf(() =>
    streamOf(
      [{ type: "start" }, { type: "toolcall_end", toolCall: claimed }, { type: "done", reason: "toolUse" }],
      assistantMessage([text("其实没有调用")], "stop", 2),
    ),
  );
  let executions = 0;
  const executor: ToolExecutor = async (toolCall) => {
    executions += 1;
    return okResult(toolCall);
  };
  const trusted = await observe({ model: liar, executeToolCall: executor });
  assert.deepEqual({ reason: trusted.result.reason, executions }, { reason: "stop", executions: 0 });

  const rows: { answer: AssistantMessage; reason: string; skipped: string[] }[] = [
    { answer: assistantMessage([text("要用工具")], "toolUse", 2), reason: "error", skipped: [] },
    { answer: assistantMessage([call("a"), call("b")], "stop", 2), reason: "error", skipped: ["a", "b"] },
    { answer: assistantMessage([call("a")], "error", 2), reason: "error", skipped: ["a"] },
  ];
  for (const row of rows) {
    const { result, events } = await observe({ model: new ScriptedModel([row.answer]), executeToolCall: executor });
    assert.equal(result.reason, row.reason);
    const skipped = events.flatMap((event) => (event.type === "tool_skipped" ? [event.result.toolCallId] : []));
    assert.deepEqual(skipped, row.skipped);
  }
  assert.equal(executions, 0, "a call of a non-toolUse answer reached the executor");
});

test("恶意替身：工具在返回结果之后才报告进度，进度被丢弃，不会出现在 tool_end 或 turn_end 之后", async () => {
  const late: (() => void)[] = [];
  const executor: ToolExecutor = async (toolCall, context) => {
    context.reportProgress?.([text("working")]);
    late.push(() => context.reportProgress?.([text("too late")]));
    return okResult(toolCall);
  };
  const model = new ScriptedModel([
    assistantMessage([call("call-1")], "toolUse", 2),
    assistantMessage([text("完成")], "stop", 4),
  ]);
  const { result, events } = await observe({ model, executeToolCall: executor });
  const count = events.length;
  for (const report of late) report();

  assert.equal(result.reason, "stop");
  assert.equal(events.length, count, "progress reported after the run was emitted");
  const types = events.map((event) => event.type);
  assert.ok(types.indexOf("tool_progress") < types.indexOf("tool_end"));
  assert.deepEqual(
    events.filter((event) => event.type === "tool_progress"),
    [{ type: "tool_progress", callId: "call-1", content: [text("working")] }],
  );
});

test("恶意替身：executor reject 或同步抛出之后才报告的进度同样被丢弃，tool_end 之后没有该调用的 tool_progress", async () => {
  const late: (() => void)[] = [];
  const executor: ToolExecutor = (toolCall, context) => {
    context.reportProgress?.([text(`${toolCall.id} working`)]);
    late.push(() => context.reportProgress?.([text(`${toolCall.id} too late`)]));
    if (toolCall.id === "sync") throw new Error("sync explosion");
    if (toolCall.id === "async") return Promise.reject(new Error("async explosion"));
    return Promise.resolve(okResult(toolCall));
  };
  const model = new ScriptedModel([
    assistantMessage([call("sync"), call("async"), call("ok")], "toolUse", 2),
    assistantMessage([text("完成")], "stop", 4),
  ]);
  const { result, events } = await observe({ model, executeToolCall: executor });
  const count = events.length;
  for (const report of late) report();

  assert.equal(result.reason, "stop");
  assert.equal(events.length, count, "progress reported after a result was emitted after the run");
  const lines = events.flatMap((event) =>
    event.type === "tool_progress"
      ? [`progress ${event.callId}`]
      : event.type === "tool_end"
        ? [`end ${event.result.toolCallId}`]
        : [],
  );
  for (const id of ["sync", "async", "ok"]) {
    assert.deepEqual(
      lines.filter((line) => line.endsWith(` ${id}`)),
      [`progress ${id}`, `end ${id}`],
      `${id}: one progress before its tool_end, none after`,
    );
  }
});

test("恶意替身：structuredClone 无法复制的 context 在任何事件之前以 TypeError 拒绝，context 不被修改", async () => {
  const hostile = { ...question, content: [text("hi")], extra: () => "a function" };
  const messages = [hostile as unknown as Context["messages"][number]];
  const context: Context = { messages };
  const events: LoopEvent[] = [];
  const model = new ScriptedModel([assistantMessage([text("不应请求")], "stop", 2)]);

  await assert.rejects(
    runAgentLoop({ model, context, tools: new ToolRegistry(), onEvent: (event) => events.push(event) }),
    (error: unknown) =>
      error instanceof TypeError &&
      /context\.messages must be plain data that structuredClone can copy/.test(error.message),
  );
  assert.deepEqual(events, []);
  assert.equal(model.requests.length, 0);
  assert.equal(context.messages, messages);
  assert.deepEqual(Object.keys(context), ["messages"]);
  assert.equal(messages.length, 1);
  assert.equal(messages[0], hostile);
  assert.deepEqual(hostile.content, [text("hi")]);
});

test("恶意替身：请求超出 ScriptedModel 的脚本时，运行不拒绝，以 error 结束：最后一条 assistant 写明第几次请求，第 1 轮的调用已配对", async () => {
  const first = assistantMessage([call("call-1")], "toolUse", 2);
  const model = new ScriptedModel([first]);
  const { result, events } = await observe({
    model,
    executeToolCall: async (toolCall) => okResult(toolCall),
  });

  assert.deepEqual({ reason: result.reason, steps: result.steps }, { reason: "error", steps: 2 });
  const last = result.messages.at(-1);
  assert.ok(last?.role === "assistant", "the run does not end on the model's error assistant");
  assert.equal(last.stopReason, "error");
  assert.match(last.errorMessage ?? "", /^ScriptedModel: request 2 has no scripted turn \(the script has 1\)/);
  assert.deepEqual(result.messages.slice(0, -1), [question, first, okResult(call("call-1"))]);
  assert.deepEqual(
    events.filter((event) => event.type !== "model_event"),
    [
      { type: "assistant_message", message: first },
      { type: "tool_start", call: call("call-1") },
      { type: "tool_end", result: okResult(call("call-1")) },
      { type: "assistant_message", message: last },
      { type: "turn_end", reason: "error", steps: 2 },
    ],
  );
  assert.deepEqual(model.requests[1]?.messages, [question, first, okResult(call("call-1"))]);
});

test("无效输入：maxSteps 不是 ≥ 1 的整数时，在任何事件与模型请求之前以 RangeError 拒绝", async () => {
  for (const maxSteps of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    const events: LoopEvent[] = [];
    const model = new ScriptedModel([assistantMessage([text("不应请求")], "stop", 2)]);
    const context: Context = { messages: [question] };
    await assert.rejects(
      runAgentLoop({ model, context, tools: new ToolRegistry(), maxSteps, onEvent: (event) => events.push(event) }),
      (error: unknown) => error instanceof RangeError && error.message.includes(`got ${String(maxSteps)}`),
    );
    assert.deepEqual({ events, requests: model.requests.length }, { events: [], requests: 0 });
    assert.deepEqual(context, { messages: [question] });
  }
});

test("恶意替身：onEvent 监听器抛出时运行以该错误拒绝，context 不被修改", async () => {
  const context: Context = { messages: [question] };
  const model = new ScriptedModel([assistantMessage([text("你好")], "stop", 2)]);
  const listenerError = new Error("listener broke");
  await assert.rejects(
    runAgentLoop({
      model,
      context,
      tools: new ToolRegistry(),
      onEvent: (event) => {
        if (event.type === "assistant_message") throw listenerError;
      },
    }),
    listenerError,
  );
  assert.deepEqual(context, { messages: [question] });
});
