import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyMessage, contentText, MAX_TOOL_NAME_LENGTH, mcpToolName } from "../src/mcp/index.js";

test("JSON-RPC 消息：请求、通知、响应按字段区分，互不重叠", () => {
  assert.equal(
    classifyMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" }).kind,
    "request",
    "有 method 有 id 是请求",
  );
  assert.equal(
    classifyMessage({ jsonrpc: "2.0", method: "notifications/x" }).kind,
    "notification",
    "有 method 无 id 是通知",
  );
  assert.equal(classifyMessage({ jsonrpc: "2.0", id: 1, result: {} }).kind, "response", "有 id 有 result 是响应");
  assert.equal(
    classifyMessage({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad" } }).kind,
    "error-response",
    "有 id 有 error 是错误响应",
  );
});

test("JSON-RPC 消息：不属于任何一类的消息是 invalid，而不是抛异常", () => {
  for (const value of [
    null,
    [],
    "text",
    { id: 1, result: {} },
    { jsonrpc: "2.0" },
    { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } },
    { jsonrpc: "2.0", id: 1, method: "x", result: {} },
    { jsonrpc: "2.0", id: 1.5, method: "x" },
    { jsonrpc: "2.0", id: 1, error: "oops" },
    { jsonrpc: "2.0", method: 7 },
  ]) {
    assert.equal(classifyMessage(value).kind, "invalid", `${JSON.stringify(value)} 应被判为 invalid`);
  }
});

test("工具名：mcp__<server>__<tool>，最长 64 字符，冲突或过长时加 8 位十六进制哈希后缀", () => {
  assert.equal(mcpToolName("memory", "create_entities"), "mcp__memory__create_entities");
  assert.equal(mcpToolName("my server", "read.file"), "mcp__my_server__read_file", "名字里只留字母、数字、_ 和 -");
  const long = mcpToolName("filesystem", "x".repeat(80));
  assert.ok(long.length <= MAX_TOOL_NAME_LENGTH, `过长的名字应截到 64 字符以内：${long.length}`);
  assert.match(long, /_[0-9a-f]{8}$/, "截断的名字应以 8 位哈希结尾");
  assert.equal(mcpToolName("filesystem", "x".repeat(80)), long, "同一个工具的名字每次都相同");
  const taken = new Set(["mcp__a__b"]);
  const clash = mcpToolName("a", "b", taken);
  assert.notEqual(clash, "mcp__a__b", "已被占用的名字不能再用");
  assert.match(clash, /^mcp__a__b_[0-9a-f]{8}$/, "冲突的名字加哈希后缀");
});

test("tools/call 的 content：文本原样保留，其他类型的块写出类型名，不悄悄丢掉", () => {
  const text = contentText([
    { type: "text", text: "a chart:" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
    { type: "resource", resource: { uri: "file:///r.txt", text: "r" } },
  ]);
  assert.match(text, /^a chart:/);
  assert.match(text, /\[image content: image\/png/, "图片块应写出类型和 MIME");
  assert.match(text, /\[resource content: file:\/\/\/r\.txt/, "资源块应写出类型和 URI");
});
