import assert from "node:assert/strict";
import { test } from "node:test";
import {
  errorMessageOf,
  executeToolCall,
  type TextContent,
  type Tool,
  type ToolCall,
  ToolRegistry,
  type ToolResultMessage,
  text,
  toolErrorResult,
} from "../src/index.js";

const schema = {
  type: "object",
  properties: { path: { type: "string" } },
  required: ["path"],
  additionalProperties: false,
};

function registryWith(execute: Tool["execute"], parameters: object = schema) {
  const calls: Record<string, unknown>[] = [];
  const tool: Tool = {
    name: "read",
    description: "reads a file",
    parameters,
    execute: (args, context) => {
      calls.push(args);
      return execute(args, context);
    },
  };
  return { registry: new ToolRegistry().register(tool), calls };
}

const readCall = (args: Record<string, unknown> = { path: "README.md" }): ToolCall => ({
  type: "toolCall",
  id: "call-1",
  name: "read",
  arguments: args,
});

function assertPairedError(result: ToolResultMessage, pattern: RegExp): void {
  assert.equal(result.toolCallId, "call-1");
  assert.equal(result.toolName, "read");
  assert.equal(result.isError, true);
  assert.equal(result.content.length, 1);
  const message = result.content[0]?.text ?? "";
  assert.match(message, pattern);
  assert.doesNotMatch(message, /\n\s+at /, "the result carries stack text");
}

test("executeToolCall：参数通过 schema 时执行工具，结果与 call 配对并带上 details，收到同一个 context", async () => {
  const signal = new AbortController().signal;
  const progress: TextContent[][] = [];
  const { registry, calls } = registryWith(async (args, context) => {
    context.reportProgress?.([text("reading")]);
    assert.equal(context.signal, signal);
    return { content: [text(`# tiny-pi from ${String(args.path)}`)], details: { bytes: 8 } };
  });
  const result = await executeToolCall(readCall(), registry, { signal, reportProgress: (c) => progress.push(c) });
  assert.deepEqual(
    { ...result, timestamp: 0 },
    {
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "read",
      content: [text("# tiny-pi from README.md")],
      details: { bytes: 8 },
      isError: false,
      timestamp: 0,
    },
  );
  assert.deepEqual(calls, [{ path: "README.md" }]);
  assert.deepEqual(progress, [[text("reading")]]);
});

test("executeToolCall：没有 details 的输出不产生 details 字段", async () => {
  const { registry } = registryWith(async () => ({ content: [] }));
  const result = await executeToolCall(readCall(), registry, {});
  assert.equal("details" in result, false);
  assert.deepEqual(result.content, []);
});

test("executeToolCall：未注册的工具得到配对的 isError 结果，不会 reject", async () => {
  const result = await executeToolCall({ ...readCall(), name: "ghost" }, new ToolRegistry(), {});
  assert.equal(result.toolName, "ghost");
  assert.equal(result.isError, true);
  assert.equal(result.content[0]?.text, 'Tool "ghost" is not registered.');
});

test("executeToolCall：不符合 schema 的参数得到配对的 isError 结果并说明原因，工具不执行", async () => {
  const { registry, calls } = registryWith(async () => ({ content: [text("ran")] }));
  const missing = await executeToolCall(readCall({}), registry, {});
  assertPairedError(missing, /^Invalid arguments for tool "read": .*must have required property 'path'/);
  const wrongType = await executeToolCall(readCall({ path: 42 }), registry, {});
  assertPairedError(wrongType, /arguments\/path must be string/);
  const extra = await executeToolCall(readCall({ path: "a", mode: "x" }), registry, {});
  assertPairedError(extra, /must NOT have additional properties/);
  assert.equal(calls.length, 0);
});

test("executeToolCall：工具的 parameters 不是合法 JSON Schema 时得到 isError 结果", async () => {
  const { registry, calls } = registryWith(async () => ({ content: [] }), { type: "no-such-type" });
  assertPairedError(await executeToolCall(readCall(), registry, {}), /not a valid JSON Schema/);
  assert.equal(calls.length, 0);
});

test("executeToolCall：工具 reject 或同步抛出 Error 时只保留 message，不写入 stack", async () => {
  const rejecting = registryWith(async () => {
    throw new Error("disk on fire");
  });
  const rejected = await executeToolCall(readCall(), rejecting.registry, {});
  assertPairedError(rejected, /^disk on fire$/);

  const throwing = registryWith(() => {
    throw new TypeError("sync failure");
  });
  assertPairedError(await executeToolCall(readCall(), throwing.registry, {}), /^sync failure$/);
});

test("executeToolCall：抛出非 Error 的值时使用 String(value)", async () => {
  for (const [thrown, expected] of [
    ["just a string", /^just a string$/],
    [undefined, /^undefined$/],
    [42, /^42$/],
    [{ toString: () => "custom object" }, /^custom object$/],
  ] as const) {
    const { registry } = registryWith(() => Promise.reject(thrown));
    assertPairedError(await executeToolCall(readCall(), registry, {}), expected);
  }
});

test("executeToolCall：格式错误的工具输出得到配对的 isError 结果", async () => {
  const malformed: unknown[] = [undefined, null, "text", {}, { content: "text" }, { content: [{ type: "image" }] }];
  for (const output of malformed) {
    const { registry } = registryWith(async () => output as never);
    assertPairedError(
      await executeToolCall(readCall(), registry, {}),
      /^Tool "read" returned malformed output: expected \{ content: TextContent\[\] \}\.$/,
    );
  }
});

test("errorMessageOf 与 toolErrorResult：错误只留 message，结果与 call 配对", () => {
  assert.equal(errorMessageOf(new Error("boom")), "boom");
  assert.equal(errorMessageOf("plain"), "plain");
  assert.equal(errorMessageOf(Object.create(null)), "[object Object]");
  const result = toolErrorResult(readCall(), "failed", { code: 1 });
  assert.deepEqual(
    { ...result, timestamp: 0 },
    {
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "read",
      content: [text("failed")],
      details: { code: 1 },
      isError: true,
      timestamp: 0,
    },
  );
});
