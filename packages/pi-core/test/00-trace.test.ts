import assert from "node:assert/strict";
import { test } from "node:test";
import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage } from "../src/messages.js";
import { danglingCalls } from "../src/trace.js";

// The README round trip of `npm run demo`, as its four canonical messages.
const readCall: ToolCall = { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } };
const user: UserMessage = { role: "user", content: "请读取 README.md，并告诉我项目名。", timestamp: 1 };
const asksToRead: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "我先读取项目说明。" }, readCall],
  stopReason: "toolUse",
  timestamp: 2,
};
const readmeResult = result(readCall, "# tiny-pi\nA small agent runtime.", 3);
const answer: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "项目名是 tiny-pi。" }],
  stopReason: "stop",
  timestamp: 4,
};

function result(call: ToolCall, text: string, timestamp: number): ToolResultMessage {
  const content = [{ type: "text" as const, text }];
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, content, isError: false, timestamp };
}

function ids(calls: ToolCall[]): string[] {
  return calls.map((call) => call.id);
}

test("序章：README 往返的 trace 按 user → assistant → toolResult → assistant 排列，每个调用都在下一段文字之前得到结果", () => {
  const trace: Message[] = [user, asksToRead, readmeResult, answer];
  assert.deepEqual(
    trace.map((message) => message.role),
    ["user", "assistant", "toolResult", "assistant"],
    "一次完整的反馈回路：提问、提出调用、环境的结果、最终回答",
  );
  const copy = structuredClone(trace);
  assert.deepEqual(ids(danglingCalls(trace)), [], "call-1 的结果在最终回答之前到达：没有悬空调用");
  assert.deepEqual(trace, copy, "读 trace 不改动任何一条消息");

  const second: ToolCall = { type: "toolCall", id: "call-2", name: "read", arguments: { path: "package.json" } };
  const both: AssistantMessage = { ...asksToRead, content: [readCall, second] };
  const reversed: Message[] = [user, both, result(second, "{}", 3), result(readCall, "# tiny-pi", 4), answer];
  assert.deepEqual(ids(danglingCalls(reversed)), [], "结果按 toolCallId 配对，与到达顺序无关");

  const failed: ToolResultMessage = { ...readmeResult, isError: true };
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, failed, answer])),
    [],
    "错误结果也是结果：isError 为 true 的 toolResult 同样回答了 call-1，不悬空（isError 不影响配对）",
  );
  const skewed: ToolResultMessage = { ...readmeResult, timestamp: 0 };
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, skewed, answer])),
    [],
    "按 transcript 的顺序走一遍消息，不按 timestamp 排序：结果排在调用之后、回答之前（它的 timestamp 更早也一样），call-1 不悬空",
  );
});

test("序章：缺少结果的调用在下一段回答文字之前就被暴露，迟到的结果不算数", () => {
  const once = ids(danglingCalls([user, asksToRead, answer]));
  assert.deepEqual(
    [...new Set(once)],
    once,
    "每个悬空调用只记一次：遇到 assistant 时 open 换成这条 assistant 自己的调用，不是追加在旧的后面",
  );
  const asksAgainSameId: AssistantMessage = { ...asksToRead, timestamp: 3 };
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, asksAgainSameId, answer])),
    ["call-1", "call-1"],
    "每个悬空调用只记一次，每次提出算一个调用：两条 assistant 各自提出 call-1、都没有结果，是两个悬空调用，返回两次 call-1（不按 id 去重）",
  );
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, answer])),
    ["call-1"],
    "模型在 call-1 没有结果时就回答了：call-1 悬空",
  );
  assert.deepEqual(ids(danglingCalls([user, asksToRead])), ["call-1"], "trace 停在提出调用的 assistant：call-1 悬空");
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, answer, readmeResult])),
    ["call-1"],
    "结果在回答之后才到：模型回答时没有看到它，call-1 仍然悬空",
  );

  const other: ToolCall = { type: "toolCall", id: "call-2", name: "read", arguments: { path: "missing.md" } };
  const both: AssistantMessage = { ...asksToRead, content: [readCall, other] };
  assert.deepEqual(
    ids(danglingCalls([user, both, readmeResult, answer])),
    ["call-2"],
    "同一条 assistant 的两个调用只回了一个：另一个悬空（结果只按 toolCallId 配对，不看顺序、不看工具名：两个都是 read）",
  );
  const renamed: ToolResultMessage = { ...readmeResult, toolName: "bash" };
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, renamed, answer])),
    [],
    "只按 id 配对，不看工具名：toolCallId 是 call-1 的结果回答了 call-1，即使它的 toolName（bash）与调用的 name（read）不同",
  );
  assert.deepEqual(
    ids(danglingCalls([user, both, answer])),
    ["call-1", "call-2"],
    "同一条 assistant 的两个调用都悬空时按声明的顺序返回（toolCallsOf 的顺序），call-1 在前",
  );
  const declaredLater: AssistantMessage = { ...asksToRead, content: [other, readCall] };
  assert.deepEqual(
    ids(danglingCalls([user, declaredLater, answer])),
    ["call-2", "call-1"],
    "同一条 assistant 的两个调用都悬空时按声明的顺序返回（toolCallsOf 的顺序），不按 id 排序：先声明的 call-2 在前",
  );
  const early = result(readCall, "# tiny-pi", 2);
  assert.deepEqual(
    ids(danglingCalls([user, early, asksToRead, answer])),
    ["call-1"],
    "结果只回答在它之前提出的调用：toolCallId 为 call-1 的结果先于提出 call-1 的 assistant 出现，不算数，call-1 悬空",
  );
  const cutOff: AssistantMessage = { ...asksToRead, stopReason: "length" };
  assert.deepEqual(
    ids(danglingCalls([user, cutOff, answer])),
    ["call-1"],
    "遇到 assistant 就让 open = toolCallsOf(message)，不看 stopReason：stopReason 为 length 的 assistant 带着 call-1，没有结果就悬空",
  );
  const steer: UserMessage = { role: "user", content: "顺便看看 package.json。", timestamp: 3 };
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, steer, answer])),
    ["call-1"],
    "user 消息不改变 open：调用之后来了一条 user，call-1 仍然开着，下一条 assistant 到来时它悬空（user 不清空 open）",
  );
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, steer, readmeResult, answer])),
    [],
    "user 消息不改变 open：调用与结果之间插进一条 user，call-1 的结果仍在下一条 assistant 之前，不悬空",
  );
  const unrelated = result({ ...readCall, id: "call-9" }, "?", 3);
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, unrelated, answer])),
    ["call-1"],
    "toolCallId 对不上的结果不配对任何调用",
  );
  const later: ToolCall = { ...readCall, id: "call-3" };
  const asksAgain: AssistantMessage = { ...asksToRead, content: [later], timestamp: 5 };
  assert.deepEqual(
    ids(danglingCalls([user, asksToRead, answer, asksAgain])),
    ["call-1", "call-3"],
    "按 transcript 的顺序返回：先悬空的在前，trace 末尾仍开着的在后（[...dangling, ...open]）",
  );
});
