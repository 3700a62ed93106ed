import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type ModelEvent,
  type ModelRequest,
  ScriptedModel,
  type ToolCall,
  text,
  userMessage,
} from "../src/index.js";

const readCall: ToolCall = { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } };
const request = (): ModelRequest => ({ systemPrompt: "sys", messages: [userMessage("hi", 1)], tools: [] });

async function play(model: ScriptedModel, req: ModelRequest = request()) {
  const stream = model.stream(req);
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, final: await stream.result() };
}

test("ScriptedModel：toolUse 回合依次发出 start、每个文本块的 text_delta、每个调用的 toolcall_delta 与 toolcall_end、done", async () => {
  const turn = assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2);
  const { events, final } = await play(new ScriptedModel([turn]));
  assert.deepEqual(events, [
    { type: "start" },
    { type: "text_delta", delta: "我先读取项目说明。" },
    { type: "toolcall_delta", delta: '{"path":"README.md"}' },
    { type: "toolcall_end", toolCall: readCall },
    { type: "done", reason: "toolUse" },
  ]);
  assert.deepEqual(final, turn);
});

test("ScriptedModel：error 与 aborted 回合以 error 事件结束，带上 errorMessage", async () => {
  const failed: AssistantMessage = { ...assistantMessage([], "error", 2), errorMessage: "overloaded" };
  const aborted = assistantMessage([], "aborted", 3);
  const model = new ScriptedModel([failed, aborted]);
  assert.deepEqual((await play(model)).events, [
    { type: "start" },
    { type: "error", reason: "error", message: "overloaded" },
  ]);
  assert.deepEqual((await play(model)).events, [{ type: "start" }, { type: "error", reason: "aborted" }]);
});

test("ScriptedModel：按顺序播放回合，记录每次请求的深拷贝与 options", async () => {
  const first = assistantMessage([text("one")], "stop", 2);
  const second = assistantMessage([text("two")], "stop", 3);
  const model = new ScriptedModel([first, second]);
  const req = request();
  const signal = new AbortController().signal;
  assert.deepEqual((await play(model, req)).final, first);
  req.messages.push(userMessage("mutated after the request", 9));
  const stream = model.stream(request(), { signal });
  assert.deepEqual(await stream.result(), second);

  assert.equal(model.requests.length, 2);
  assert.deepEqual(model.requests[0], request(), "a later change to the request leaked into its snapshot");
  assert.notEqual(model.requests[0], req);
  assert.deepEqual(model.requestOptions, [undefined, { signal }]);
});

test("ScriptedModel：脚本与结果互不共享对象，修改其中一个不影响后续回合", async () => {
  const turn = assistantMessage([text("original")], "stop", 2);
  const model = new ScriptedModel([turn, turn]);
  turn.content.push(text("changed by the caller"));
  const { final } = await play(model);
  assert.deepEqual(final.content, [text("original")]);
  final.content.push(text("changed by the consumer"));
  assert.deepEqual((await play(model)).final.content, [text("original")]);
});

test("ScriptedModel：超出脚本的请求以指出第几次请求与脚本长度的 error 终态结束，不抛出", async () => {
  const model = new ScriptedModel([assistantMessage([text("only")], "stop", 2)]);
  await play(model);
  const message =
    "ScriptedModel: request 2 has no scripted turn (the script has 1); add a turn or expect fewer requests";
  const { events, final } = await play(model);
  assert.deepEqual(events, [{ type: "start" }, { type: "error", reason: "error", message }]);
  assert.equal(final.stopReason, "error");
  assert.equal(final.errorMessage, message);
  assert.deepEqual(final.content, []);
  assert.equal(model.requests.length, 2, "the request past the script is still recorded");
});

test("ScriptedModel：signal 已取消的请求以 aborted 终态结束，不消耗回合；之后的请求照常编号", async () => {
  const model = new ScriptedModel([assistantMessage([text("only")], "stop", 2)]);
  const controller = new AbortController();
  controller.abort();
  const stream = model.stream(request(), { signal: controller.signal });
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  assert.deepEqual(events, [{ type: "start" }, { type: "error", reason: "aborted" }]);
  const cancelled = await stream.result();
  assert.equal(cancelled.stopReason, "aborted");
  assert.equal(cancelled.errorMessage, undefined);
  assert.deepEqual((await play(model)).final.content, [text("only")], "the pre-aborted request played no turn");
  assert.match(
    (await play(model)).final.errorMessage ?? "",
    /^ScriptedModel: request 3 has no scripted turn \(the script has 1\)/,
  );
  assert.equal(model.requests.length, 3);
});

test("ScriptedModel：signal 已取消的请求即使超出脚本，也是 aborted 而不是脚本耗尽", async () => {
  const controller = new AbortController();
  controller.abort();
  const stream = new ScriptedModel([]).stream(request(), { signal: controller.signal });
  const final = await stream.result();
  assert.equal(final.stopReason, "aborted");
  assert.equal(final.errorMessage, undefined);
});
