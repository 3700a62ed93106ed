import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type ModelEvent,
  type ModelRequest,
  type ModelStream,
  ScriptedModel,
  type ToolCall,
  text,
  userMessage,
} from "../src/index.js";

const readCall: ToolCall = { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } };

function request(): ModelRequest {
  return {
    systemPrompt: "你是 tiny-pi。",
    messages: [userMessage("请读取 README.md，并告诉我项目名。", 1)],
    tools: [],
  };
}

async function drain(stream: ModelStream): Promise<{ events: ModelEvent[]; final: AssistantMessage }> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, final: await stream.result() };
}

test("脚本回合：脚本里的消息按真实协议播放成事件，每次请求留下当时的深拷贝快照", async () => {
  const first = assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2);
  const second = assistantMessage([text("项目名是 tiny-pi。")], "stop", 4);
  const model = new ScriptedModel([first, second]);
  const sent = request();
  const signal = new AbortController().signal;
  const options = { signal };

  const one = await drain(model.stream(sent, options));
  assert.equal(
    one.final.stopReason,
    "toolUse",
    "options 里有 signal 但它还没有取消（signal.aborted 为 false）：回合照常播放；预取消看的是 options.signal.aborted，不是有没有 signal",
  );
  assert.deepEqual(
    one.events.find((event) => event.type === "toolcall_delta"),
    { type: "toolcall_delta", delta: '{"path":"README.md"}' },
    "toolcall_delta 的 delta 是 JSON.stringify(call.arguments)：只有调用的参数，不是整个调用",
  );
  const kinds = one.events.map((event) => event.type);
  assert.ok(
    kinds.indexOf("toolcall_delta") < kinds.indexOf("toolcall_end"),
    `每个调用先 push toolcall_delta，再 push toolcall_end：得到 ${kinds.join("、")}`,
  );
  assert.deepEqual(
    one.events,
    [
      { type: "start" },
      { type: "text_delta", delta: "我先读取项目说明。" },
      { type: "toolcall_delta", delta: '{"path":"README.md"}' },
      { type: "toolcall_end", toolCall: readCall },
      { type: "done", reason: "toolUse" },
    ],
    "start、每个文本块的 text_delta、每个调用的 toolcall_delta 与 toolcall_end，最后是 done",
  );
  assert.deepEqual(one.final, first, "result() 给出脚本里的那条消息");
  assert.notEqual(one.final, first, "给出的是副本：消费者改它不会改到脚本");
  const script = (model as unknown as { turns: AssistantMessage[] }).turns;
  one.final.content.push(text("消费者改了它"));
  assert.deepEqual(script[0], first, "交给 playTurn() 的是回合的副本：消费者改 result() 不会改到脚本里的回合");
  const ended = one.events.find((event) => event.type === "toolcall_end");
  const finalCall = one.final.content.find((block) => block.type === "toolCall");
  assert.ok(
    ended?.type === "toolcall_end" && finalCall !== undefined,
    "这一轮有 toolcall_end，result() 里也有那个调用",
  );
  assert.notEqual(ended.toolCall, finalCall, "toolcall_end 里的调用也是副本：和 result() 里的那个调用不是同一个对象");

  sent.messages.push(first);
  const two = await drain(model.stream(sent));
  assert.deepEqual(two.events.at(-1), { type: "done", reason: "stop" }, "第二次请求播放第二个回合");
  assert.deepEqual(model.requests[0], request(), "快照是请求当时的样子：之后改请求不影响它");
  assert.equal(model.requests[1]?.messages.length, 2, "第二份快照看到追加后的两条消息");
  assert.deepEqual(model.requestOptions, [{ signal }, undefined], "每次请求的 options 按顺序原样记下");
  // assert.ok, not assert.equal: for two objects of the same shape Node prints its own message, not this one.
  assert.ok(model.requestOptions[0] === options, "options 原样记下：就是调用者交来的那个对象，不复制");

  const other: ToolCall = { type: "toolCall", id: "call-2", name: "read", arguments: { path: "LICENSE" } };
  const many = new ScriptedModel([
    assistantMessage([text("先读两个文件。"), text("马上回来。"), readCall, other], "toolUse", 6),
  ]);
  const played = await drain(many.stream(request()));
  assert.deepEqual(
    played.events.map((event) =>
      event.type === "toolcall_end"
        ? `end ${event.toolCall.id}`
        : event.type === "text_delta"
          ? `text ${event.delta}`
          : event.type,
    ),
    [
      "start",
      "text 先读两个文件。",
      "text 马上回来。",
      "toolcall_delta",
      "end call-1",
      "toolcall_delta",
      "end call-2",
      "done",
    ],
    "每个文本块按 content 里的顺序各一个 text_delta；每个调用先 toolcall_delta 再 toolcall_end，一个调用接一个调用",
  );
  const textAfterCall = new ScriptedModel([assistantMessage([readCall, text("读完再说。")], "toolUse", 7)]);
  const after = await drain(textAfterCall.stream(request()));
  assert.deepEqual(
    after.events.map((event) => event.type),
    ["start", "text_delta", "toolcall_delta", "toolcall_end", "done"],
    "先发完所有文本块，再发调用：content 里写在调用之后的文字也先发 text_delta（两个循环，不是按 content 一块一块发）",
  );
  const blank = await drain(new ScriptedModel([assistantMessage([text("")], "stop", 8)]).stream(request()));
  assert.deepEqual(
    blank.events,
    [{ type: "start" }, { type: "text_delta", delta: "" }, { type: "done", reason: "stop" }],
    '每个 text 块一个 text_delta，空字符串的块也是（delta 为 ""）：脚本写了什么就播放什么，不跳过',
  );
});

test("错误回合：显式的 error 回合保留部分文字与 errorMessage，以 error 事件结束，result() 仍 resolve", async () => {
  const failed: AssistantMessage = {
    ...assistantMessage([text("我先读")], "error", 2),
    errorMessage: "upstream overloaded",
  };
  const cancelled: AssistantMessage = { ...assistantMessage([], "aborted", 4), errorMessage: "cancelled by user" };
  const silent: AssistantMessage = { ...assistantMessage([], "error", 5), errorMessage: "" };
  const model = new ScriptedModel([failed, assistantMessage([], "aborted", 3), cancelled, silent]);
  const { events, final } = await drain(model.stream(request()));
  assert.deepEqual(
    events,
    [
      { type: "start" },
      { type: "text_delta", delta: "我先读" },
      { type: "error", reason: "error", message: "upstream overloaded" },
    ],
    "部分文字照常发出，终态是带诊断的 error 事件，没有 done",
  );
  assert.deepEqual(final, failed, "result() 给出带 errorMessage 与部分文字的 assistant");
  const aborted = await drain(model.stream(request()));
  assert.equal(
    (aborted.events.at(-1) as { reason?: string } | undefined)?.reason,
    "aborted",
    'error 与 aborted 的终态是 { type: "error", reason }：reason 就是回合的 stopReason，没有 errorMessage 的 aborted 回合也是 reason aborted（不是 error）',
  );
  assert.deepEqual(
    aborted.events,
    [{ type: "start" }, { type: "error", reason: "aborted" }],
    "没有 errorMessage 的 aborted 回合：error 事件不带 message 字段",
  );
  const withMessage = await drain(model.stream(request()));
  assert.deepEqual(
    withMessage.events.at(-1),
    { type: "error", reason: "aborted", message: "cancelled by user" },
    'error 与 aborted 的终态是 { type: "error", reason }：reason 就是回合的 stopReason，有 errorMessage 的 aborted 回合仍是 reason aborted（再加上 message）',
  );
  const empty = await drain(model.stream(request()));
  assert.deepEqual(
    empty.events.at(-1),
    { type: "error", reason: "error", message: "" },
    "有 errorMessage 字段就加上 message，空字符串也是（看 === undefined，不看真假，和第 03 章一样）",
  );
});

const exhausted =
  "ScriptedModel: request 2 has no scripted turn (the script has 1); add a turn or expect fewer requests";

test("脚本耗尽：超出脚本的请求不抛出，以 errorMessage 写明第几次请求与脚本长度的 error 终态结束，这次请求仍留下快照", async () => {
  const model = new ScriptedModel([assistantMessage([text("只有一个回合")], "stop", 2)]);
  await drain(model.stream(request()));
  let stream: ModelStream | undefined;
  assert.doesNotThrow(() => {
    stream = model.stream(request());
  }, "stream() 不抛出：脚本耗尽也走协议的终态");
  assert.ok(stream !== undefined, "stream() 返回一个流，而不是什么也不给");
  assert.equal(
    model.requests.length,
    2,
    "快照在检查回合之前已经记下：超出脚本的请求也记进 requests，测试能看到它问了什么",
  );
  const { events, final } = await drain(stream);
  assert.deepEqual(
    final.content,
    [],
    "脚本耗尽没有回合可放：result() 是一条空的 assistant，那句话只在 errorMessage 与 error 事件的 message 里，不当成文字",
  );
  assert.deepEqual(
    events,
    [{ type: "start" }, { type: "error", reason: "error", message: exhausted }],
    "终态是 error 事件，message 写明第 2 次请求没有回合、脚本只有 1 个，以及怎么改",
  );
  assert.deepEqual(
    { content: final.content, stopReason: final.stopReason, errorMessage: final.errorMessage },
    { content: [], stopReason: "error", errorMessage: exhausted },
    "result() 给出 stopReason 为 error、带同一句 errorMessage 的空 assistant",
  );
  const again = await drain(model.stream(request()));
  assert.equal(
    again.final.errorMessage,
    "ScriptedModel: request 3 has no scripted turn (the script has 1); add a turn or expect fewer requests",
    "第几次请求是 this.requests.length：耗尽之后再请求一次，写明的是第 3 次请求，不是播放过的回合数加一",
  );
});

test("预取消：signal 已经取消的请求以 aborted 终态结束，不消耗脚本里的回合，仍留下快照", async () => {
  const answer = assistantMessage([text("项目名是 tiny-pi。")], "stop", 2);
  const model = new ScriptedModel([answer]);
  const controller = new AbortController();
  controller.abort();

  const cancelled = await drain(model.stream(request(), { signal: controller.signal }));
  assert.deepEqual(
    cancelled.events,
    [{ type: "start" }, { type: "error", reason: "aborted" }],
    "没有播放任何回合内容：终态是不带 message 的 aborted error 事件",
  );
  assert.deepEqual(
    { content: cancelled.final.content, stopReason: cancelled.final.stopReason },
    { content: [], stopReason: "aborted" },
    "result() 给出 stopReason 为 aborted 的空 assistant",
  );
  assert.equal("errorMessage" in cancelled.final, false, "预取消的 assistant 没有 errorMessage 字段");
  assert.equal(model.requests.length, 1, "预取消的请求也记进 requests");
  assert.deepEqual(
    model.requestOptions,
    [{ signal: controller.signal }],
    "预取消的请求的 options 也记进 requestOptions：requestOptions[i] 与 requests[i] 是同一次请求，两个列表一样长",
  );

  const next = await drain(model.stream(request()));
  assert.deepEqual(next.final, answer, "回合没有被消耗：下一次请求仍播放脚本的第一个回合");
  const third = await drain(model.stream(request()));
  assert.equal(
    third.final.errorMessage,
    "ScriptedModel: request 3 has no scripted turn (the script has 1); add a turn or expect fewer requests",
    "预取消的请求也算一次请求：之后脚本耗尽时写明的是第 3 次请求（this.requests.length），不是播放过的回合数加一",
  );

  const empty = new ScriptedModel([]);
  const cancelledPastScript = await drain(empty.stream(request(), { signal: controller.signal }));
  assert.deepEqual(
    cancelledPastScript.events,
    [{ type: "start" }, { type: "error", reason: "aborted" }],
    "预取消的检查在找回合之前：脚本已经耗尽时，已取消的请求仍以 aborted 结束，不是“没有回合”的 error",
  );
});
