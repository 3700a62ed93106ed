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
];

test("契约：@pi/core 的入口导出 text、userMessage、assistantMessage、ScriptedModel、ToolRegistry、executeToolCall", () => {
  for (const name of ["text", "userMessage", "assistantMessage", "ScriptedModel", "ToolRegistry", "executeToolCall"]) {
    assert.equal(typeof (core as Record<string, unknown>)[name], "function", `@pi/core exports ${name}`);
  }
});

test("契约：@pi/course 的入口导出 runAgentLoop", () => {
  assert.equal(typeof course.runAgentLoop, "function");
});
