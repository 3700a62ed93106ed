import assert from "node:assert/strict";
import { test } from "node:test";
import { ToolRegistry } from "@pi/core";
import { createWorkspaceTools, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "../src/index.js";

test("createWorkspaceTools：按 read、write、edit、bash 的顺序返回，可注册进第 06 章的 ToolRegistry", () => {
  const tools = createWorkspaceTools(process.cwd());
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ["read", "write", "edit", "bash"],
  );
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const required = registry
    .definitions()
    .map((definition) => [definition.name, (definition.parameters as { required: string[] }).required]);
  assert.deepEqual(required, [
    ["read", ["path"]],
    ["write", ["path", "content"]],
    ["edit", ["path", "edits"]],
    ["bash", ["command"]],
  ]);
  assert.deepEqual([DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES], [2000, 51_200]);
});

test("createWorkspaceTools：非正数的选项是清楚的 RangeError", () => {
  for (const options of [{ bashTimeoutSeconds: 0 }, { maxLines: -1 }, { maxBytes: Number.NaN }]) {
    assert.throws(() => createWorkspaceTools(process.cwd(), options), RangeError, JSON.stringify(options));
  }
});
