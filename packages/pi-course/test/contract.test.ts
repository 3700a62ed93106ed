// Every name of ../shared/spec/course-api.md is exported from its package entry.
// The type-only imports below fail the build if a type goes missing; the tests check the values.
import assert from "node:assert/strict";
import { test } from "node:test";
import type {
  AssistantMessage,
  Context,
  Message,
  Model,
  ModelEvent,
  ModelRequest,
  ModelStream,
  ModelStreamOptions,
  StopReason,
  TextContent,
  Tool,
  ToolCall,
  ToolDefinition,
  ToolExecutionContext,
  ToolOutput,
  ToolResultMessage,
  UserMessage,
} from "@pi/core";
import * as core from "@pi/core";
import type { AgentLoopOptions, AgentRunResult, LoopEvent, ToolExecutor } from "../src/index.js";
import * as course from "../src/index.js";

export type ContractTypes = [
  AssistantMessage,
  Context,
  Message,
  Model,
  ModelEvent,
  ModelRequest,
  ModelStream,
  ModelStreamOptions,
  StopReason,
  TextContent,
  Tool,
  ToolCall,
  ToolDefinition,
  ToolExecutionContext,
  ToolOutput,
  ToolResultMessage,
  UserMessage,
  AgentLoopOptions,
  AgentRunResult,
  LoopEvent,
  ToolExecutor,
];

test("契约：@pi/core 的入口导出 text、userMessage、assistantMessage、ScriptedModel、ToolRegistry、executeToolCall", () => {
  for (const name of ["text", "userMessage", "assistantMessage", "ScriptedModel", "ToolRegistry", "executeToolCall"]) {
    assert.equal(typeof (core as Record<string, unknown>)[name], "function", `@pi/core exports ${name}`);
  }
});

test("契约：@pi/course 的入口导出 runAgentLoop", () => {
  assert.equal(typeof course.runAgentLoop, "function");
});
