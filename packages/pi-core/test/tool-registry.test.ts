import assert from "node:assert/strict";
import { test } from "node:test";
import { type Tool, ToolRegistry, text } from "../src/index.js";

function tool(name: string): Tool {
  return {
    name,
    description: `the ${name} tool`,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [text(name)] }),
  };
}

test("ToolRegistry：新建时为空，register 可链式调用，get 找到已注册工具", () => {
  const empty = new ToolRegistry();
  assert.deepEqual(empty.definitions(), []);
  assert.equal(empty.get("read"), undefined);
  const read = tool("read");
  const registry = new ToolRegistry().register(read).register(tool("write"));
  assert.equal(registry.get("read"), read);
  assert.equal(registry.get("missing"), undefined);
});

test("ToolRegistry：definitions() 按注册顺序给出 name、description、parameters，不含 execute", () => {
  const registry = new ToolRegistry().register(tool("write")).register(tool("read"));
  assert.deepEqual(registry.definitions(), [
    { name: "write", description: "the write tool", parameters: { type: "object", properties: {} } },
    { name: "read", description: "the read tool", parameters: { type: "object", properties: {} } },
  ]);
});

test("ToolRegistry：重名注册是清楚的错误，原有工具保持不变", () => {
  const first = tool("read");
  const registry = new ToolRegistry().register(first);
  assert.throws(() => registry.register(tool("read")), {
    message: 'ToolRegistry: a tool named "read" is already registered; give each tool a unique name',
  });
  assert.equal(registry.get("read"), first);
  assert.equal(registry.definitions().length, 1);
});
