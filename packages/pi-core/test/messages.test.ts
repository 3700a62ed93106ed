import assert from "node:assert/strict";
import { test } from "node:test";
import { assistantMessage, type ToolCall, text, toolCallsOf, userMessage } from "../src/index.js";

const readCall: ToolCall = { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } };

test("消息：text、userMessage、assistantMessage 构造契约中的形状，时间戳可指定", () => {
  assert.deepEqual(text("你好"), { type: "text", text: "你好" });
  assert.deepEqual(userMessage("请读取 README.md", 1), { role: "user", content: "请读取 README.md", timestamp: 1 });
  assert.deepEqual(userMessage([text("a")], 2).content, [{ type: "text", text: "a" }]);
  assert.deepEqual(assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2), {
    role: "assistant",
    content: [{ type: "text", text: "我先读取项目说明。" }, readCall],
    stopReason: "toolUse",
    timestamp: 2,
  });
});

test("消息：省略时间戳时使用当前时间，assistant 没有 errorMessage 字段", () => {
  const before = Date.now();
  const user = userMessage("hi");
  const assistant = assistantMessage([], "stop");
  const after = Date.now();
  assert.ok(user.timestamp >= before && user.timestamp <= after);
  assert.ok(assistant.timestamp >= before && assistant.timestamp <= after);
  assert.equal("errorMessage" in assistant, false);
});

test("消息：toolCallsOf 按声明顺序取出工具调用，跳过文本块", () => {
  const second: ToolCall = { type: "toolCall", id: "call-2", name: "probe", arguments: {} };
  const message = assistantMessage([text("a"), readCall, text("b"), second], "toolUse", 2);
  assert.deepEqual(toolCallsOf(message), [readCall, second]);
  assert.deepEqual(toolCallsOf(assistantMessage([text("只有文本")], "stop", 2)), []);
});
