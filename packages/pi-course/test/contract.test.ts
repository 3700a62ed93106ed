// Every name of ../shared/spec/course-api.md is exported from its package entry.
// The type tuple below fails the build if a type goes missing; the tests check the values.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as core from "@pi/core";
import * as course from "../src/index.js";

export type ContractTypes = [
  core.AssistantMessage,
  core.Context,
  core.Message,
  core.Model,
  core.ModelEvent,
  core.ModelRequest,
  core.ModelStream,
  core.ModelStreamOptions,
  core.StopReason,
  core.TextContent,
  core.Tool,
  core.ToolCall,
  core.ToolDefinition,
  core.ToolExecutionContext,
  core.ToolOutput,
  core.ToolResultMessage,
  core.UserMessage,
  course.AgentLoopOptions,
  course.AgentRunResult,
  course.LoopEvent,
  course.ToolExecutor,
  course.AgentOptions,
  course.AgentEvent,
  course.AgentState,
];

test("契约：@pi/core 的入口导出 text、userMessage、assistantMessage、ScriptedModel、ToolRegistry、executeToolCall", () => {
  for (const name of ["text", "userMessage", "assistantMessage", "ScriptedModel", "ToolRegistry", "executeToolCall"]) {
    assert.equal(typeof (core as Record<string, unknown>)[name], "function", `@pi/core exports ${name}`);
  }
});

test("契约：@pi/course 的入口导出 runAgentLoop 与第 09 章的 Agent", () => {
  assert.equal(typeof course.runAgentLoop, "function");
  assert.equal(typeof course.Agent, "function");
  for (const method of ["subscribe", "prompt", "steer", "followUp", "abort", "waitForIdle", "reset"]) {
    assert.equal(
      typeof (course.Agent.prototype as unknown as Record<string, unknown>)[method],
      "function",
      `Agent.${method}`,
    );
  }
});

test("契约：不给 maxSteps 时上限是 32 次模型请求，第 33 次请求不会开始", async () => {
  const call = (step: number): core.ToolCall => ({
    type: "toolCall",
    id: `call-${step}`,
    name: "probe",
    arguments: {},
  });
  const turns = Array.from({ length: 33 }, (_, index) => core.assistantMessage([call(index + 1)], "toolUse", index));
  const model = new core.ScriptedModel(turns);
  const executed: string[] = [];
  const result = await course.runAgentLoop({
    model,
    context: { messages: [core.userMessage("一直调用工具", 0)] },
    tools: new core.ToolRegistry(),
    executeToolCall: async (toolCall) => {
      executed.push(toolCall.id);
      return core.toolErrorResult(toolCall, "ok");
    },
  });
  assert.equal(result.reason, "maxSteps");
  assert.equal(result.steps, 32);
  assert.equal(model.requests.length, 32);
  assert.equal(executed.length, 32, "最后一批工具仍执行");
  assert.equal(result.messages.length, 1 + 32 * 2);
});
