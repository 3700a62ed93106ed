import assert from "node:assert/strict";
import { test } from "node:test";
import {
  executeToolCall,
  type TextContent,
  type Tool,
  type ToolCall,
  type ToolExecutionContext,
  ToolRegistry,
  type ToolResultMessage,
  text,
} from "../src/index.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------
// Helpers: they let each test read like the guide's timeline of one call.
// ---------------------------------------------------------------------------

const readSchema = {
  type: "object",
  properties: { path: { type: "string" } },
  required: ["path"],
  additionalProperties: false,
};

/** The guide's in-memory `read`: returns the README for any path and records every execution. */
function readTool(execute?: Tool["execute"]) {
  const executions: { args: Record<string, unknown>; context: ToolExecutionContext }[] = [];
  const tool: Tool = {
    name: "read",
    description: "Reads a file of the workspace.",
    parameters: readSchema,
    async execute(args, context) {
      executions.push({ args, context });
      if (execute !== undefined) return execute(args, context);
      return { content: [text("# tiny-pi\nA small agent runtime.")], details: { path: args.path, lines: 2 } };
    },
  };
  return { tool, executions, registry: new ToolRegistry().register(tool) };
}

function namedTool(name: string): Tool {
  return {
    name,
    description: `the ${name} tool`,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [text(name)] }),
  };
}

function call(name: string, args: Record<string, unknown>, id = "call-1"): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

const readCall = call("read", { path: "README.md" });

/** A result with its timestamp zeroed, for comparing results made at run time. */
function untimed(result: ToolResultMessage): ToolResultMessage {
  return { ...result, timestamp: 0 };
}

/** Asserts `result` is an isError result paired to `paired`, with one text block matching `message`. */
function assertPairedError(result: ToolResultMessage, paired: ToolCall, message: RegExp): void {
  assert.equal(result.role, "toolResult", "结果是一条 toolResult 消息");
  assert.equal(result.toolCallId, paired.id, "配对：toolCallId 与 call.id 相同");
  assert.equal(result.toolName, paired.name, "配对：toolName 与 call.name 相同");
  assert.equal(result.isError, true, "失败的调用得到 isError 结果");
  assert.equal(result.content.length, 1, "错误结果只有一个文本块");
  const line = result.content[0]?.text ?? "";
  assert.match(line, message, `错误文字说明原因，应当匹配 ${message}`);
  assert.doesNotMatch(line, /\n\s+at /, "错误结果不含 stack");
}

// ---------------------------------------------------------------------------
// Lab 6.1 · 登记与定义
// ---------------------------------------------------------------------------

test("登记与定义：新 Registry 为空，register 可链式调用，get 找到同一个工具，未登记的名字得到 undefined", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const empty = new ToolRegistry();
  assert.deepEqual(empty.definitions(), [], "新 Registry 没有定义");
  assert.equal(empty.get("read"), undefined, "未登记的名字得到 undefined，不抛出");

  const { tool: read } = readTool();
  const write = namedTool("write");
  const registry = new ToolRegistry();
  assert.equal(registry.register(read).register(write), registry, "register 返回 this，可以链式调用");
  assert.equal(registry.get("read"), read, "get 返回登记的同一个工具对象");
  assert.equal(registry.get("write"), write, "get 按名字找到每一个登记的工具");
  assert.equal(registry.get("Read"), undefined, "名字区分大小写");
});

test("登记与定义：definitions() 按登记顺序只给出 name、description、parameters；重名登记是清楚的错误，原有工具不变", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const { tool: read } = readTool();
  const registry = new ToolRegistry().register(namedTool("write")).register(read);
  assert.deepEqual(
    registry.definitions(),
    [
      { name: "write", description: "the write tool", parameters: { type: "object", properties: {} } },
      { name: "read", description: "Reads a file of the workspace.", parameters: readSchema },
    ],
    "定义按登记顺序排列，不含 execute",
  );

  assert.throws(
    () => registry.register(namedTool("read")),
    (error: unknown) => {
      assert.ok(error instanceof Error, "重名登记抛出 Error");
      assert.match(error.message, /"read"/, "错误说明是哪个名字重复");
      return true;
    },
    "重名登记是清楚的错误：register() 先查重名，名字已经登记时抛出，而不是覆盖原有工具",
  );
  assert.equal(registry.get("read"), read, "重名登记失败后原有工具保持不变");
  assert.equal(registry.definitions().length, 2, "重名登记失败后定义数量不变");
});

// ---------------------------------------------------------------------------
// Lab 6.2 · 未知工具
// ---------------------------------------------------------------------------

test("未知工具：请求未登记的 ghost 得到配对的 isError 结果，executeToolCall 不 reject", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const ghost = call("ghost", { path: "README.md" }, "call-7");
  const result = await executeToolCall(ghost, new ToolRegistry(), {});
  assertPairedError(result, ghost, /^Tool "ghost" is not registered\.$/);
});

test("未知工具：名字只差大小写也算未登记，结果带上模型给的 id 与 name，登记的 read 不执行", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { registry, executions } = readTool();
  const wrongCase = call("Read", { path: "README.md" }, "call-2");
  const result = await executeToolCall(wrongCase, registry, {});
  assertPairedError(result, wrongCase, /^Tool "Read" is not registered\.$/);
  assert.equal(executions.length, 0, "名字不匹配时不执行任何工具");
});

// ---------------------------------------------------------------------------
// Lab 6.3 · 参数校验
// ---------------------------------------------------------------------------

test("参数校验：缺少、类型不对和多余的参数各得一条配对错误，带上校验器的原因，工具一次也不执行", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { registry, executions } = readTool();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{}, /^Invalid arguments for tool "read": .*must have required property 'path'/],
    [{ path: 42 }, /^Invalid arguments for tool "read": .*arguments\/path must be string/],
    [{ path: "README.md", mode: "x" }, /^Invalid arguments for tool "read": .*must NOT have additional properties/],
  ];
  for (const [args, message] of cases) {
    const bad = call("read", args);
    assertPairedError(await executeToolCall(bad, registry, {}), bad, message);
  }
  assert.equal(executions.length, 0, "参数不合 schema 时工具不执行");
});

test("参数校验：工具的 parameters 不是合法 JSON Schema 时也得到配对错误，工具不执行", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { tool, executions } = readTool();
  const registry = new ToolRegistry().register({ ...tool, parameters: { type: "no-such-type" } });
  assertPairedError(await executeToolCall(readCall, registry, {}), readCall, /not a valid JSON Schema/);
  assert.equal(executions.length, 0, "schema 无效时工具不执行");
});

// ---------------------------------------------------------------------------
// Lab 6.4 · 执行与配对
// ---------------------------------------------------------------------------

test("执行与配对：read(call-1) 执行一次，收到同一个 context，结果与 call-1 配对并带上 details", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { registry, executions } = readTool();
  const signal = new AbortController().signal;
  const reportProgress = (_content: TextContent[]) => {};
  const context: ToolExecutionContext = { signal, reportProgress };

  const result = await executeToolCall(readCall, registry, context);

  assert.equal(executions.length, 1, "工具执行恰好一次");
  assert.equal(
    result.isError,
    false,
    "read 返回了合法的 { content }，结果却是 isError：tool.execute() 返回 Promise，要先 await 它，output 才是工具的输出",
  );
  assert.deepEqual(executions[0]?.args, { path: "README.md" }, "工具收到 call.arguments");
  assert.ok(executions[0]?.context === context, "工具收到调用者的同一个 context 对象：不复制、不包装");
  assert.equal(executions[0]?.context.signal, signal, "工具收到调用者的 signal");
  assert.equal(executions[0]?.context.reportProgress, reportProgress, "工具收到调用者的 reportProgress");
  assert.deepEqual(
    untimed(result),
    {
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "read",
      content: [text("# tiny-pi\nA small agent runtime.")],
      details: { path: "README.md", lines: 2 },
      isError: false,
      timestamp: 0,
    },
    "结果的 id 与 name 来自 call，content 与 details 来自工具输出",
  );
  assert.ok(Number.isFinite(result.timestamp) && result.timestamp > 0, "结果带上时间戳");
});

test("执行与配对：没有 details 的输出不产生 details 字段，空 content 也是合法输出", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { registry } = readTool(async () => ({ content: [] }));
  const result = await executeToolCall(readCall, registry, {});
  assert.equal(result.isError, false, "空 content 是成功的结果");
  assert.deepEqual(result.content, [], "content 原样保留");
  assert.equal("details" in result, false, "没有 details 时结果不含 details 字段");

  const { registry: undefinedDetails } = readTool(async () => ({ content: [], details: undefined }));
  const bare = await executeToolCall(readCall, undefinedDetails, {});
  assert.equal(
    "details" in bare,
    false,
    '输出的 details 是 undefined 也算没有 details：结果不含 details 字段（看 details !== undefined，不看 "details" in output）',
  );
});

// ---------------------------------------------------------------------------
// Lab 6.5 · 工具失败
// ---------------------------------------------------------------------------

test("工具失败：reject、同步抛出和抛出非 Error 的值都得到配对错误，只留 message，不写 stack", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const cases: [Tool["execute"], RegExp][] = [
    [() => Promise.reject(new Error("disk on fire")), /^disk on fire$/],
    [
      () => {
        throw new TypeError("sync failure");
      },
      /^sync failure$/,
    ],
    [() => Promise.reject("just a string"), /^just a string$/],
    [() => Promise.reject(42), /^42$/],
  ];
  for (const [execute, message] of cases) {
    const { tool } = readTool();
    const registry = new ToolRegistry().register({ ...tool, execute });
    assertPairedError(await executeToolCall(readCall, registry, {}), readCall, message);
  }
});

test("工具失败：格式错误的输出得到配对错误，说明期望的形状", { timeout: TEST_TIMEOUT_MS }, async () => {
  const malformed: unknown[] = [undefined, null, "text", {}, { content: "text" }, { content: [{ type: "image" }] }];
  for (const output of malformed) {
    const { registry } = readTool(async () => output as never);
    assertPairedError(
      await executeToolCall(readCall, registry, {}),
      readCall,
      /^Tool "read" returned malformed output: expected \{ content: TextContent\[\] \}\.$/,
    );
  }
});
