// Chapter 16's focused tests: one script in a fresh QuickJS VM inside a worker thread, calling tools
// through the message bridge. Real engine, real worker, real workspace tools in a temp folder.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { executeToolCall, ScriptedModel, type ToolCall, ToolRegistry, text } from "@pi/core";
import { runAgentLoop } from "@pi/course";
import { QuickJS } from "quickjs-wasi";
import { type CodeDetails, createCodeTool } from "../src/codemode/code-tool.js";
import { engineModule } from "../src/codemode/engine-module.js";
import { NestedCallBridge } from "../src/codemode/nested-calls.js";
import type { ReplyMessage } from "../src/codemode/protocol.js";
import { type HostLink, runScript, type ScriptOutcome } from "../src/codemode/run-script.js";
import { type CodeRun, runCode, workerError } from "../src/codemode/sandbox.js";
import { ExposedRegistry } from "../src/exposure/registry.js";
import {
  assertHostUntouched,
  assertOneLine,
  echoTool,
  failingTool,
  waitingTool,
  withWorkspace,
} from "./codemode-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 20_000;

function codeCall(id: string, code: string) {
  const call: ToolCall = { type: "toolCall", id, name: "code", arguments: { code } };
  return {
    role: "assistant" as const,
    content: [call],
    stopReason: "toolUse" as const,
  };
}

// ─── Lab 16.1 · 一次运行 ───

/** Host answers by tool name, as the bridge would give them; a name without an answer is refused. */
type Answers = Record<string, (args: string) => { ok: boolean; text: string }>;

/** One script in a fresh VM on this thread, with `answers` standing in for the bridge (Lab 16.1 alone). */
async function oneRun(code: string, answers: Answers = {}): Promise<ScriptOutcome> {
  const vm = await QuickJS.create({ wasm: (await engineModule()) as never, memoryLimit: 64 * 1024 * 1024 });
  const replies: ReplyMessage[] = [];
  const host: HostLink = {
    call: (seq, name, args) => {
      const answer = answers[name]?.(args) ?? { ok: false, text: `unknown tool ${name}` };
      replies.push({ type: "reply", seq, ...answer });
    },
    nextReply: async () => replies.shift() as ReplyMessage,
  };
  return runScript(vm, code, host, { maxOutputChars: 10_000, maxConsoleCalls: 100 });
}

test("一次运行：return 的值（JSON 文本）与 console 的每一行都带回来", { timeout: TEST_TIMEOUT_MS }, async () => {
  const run = await oneRun("console.log('a', {b: 1}); console.log('c'); return {sum: 1 + 2}");
  assert.deepEqual(
    run,
    { ok: true, value: '{"sum":3}', output: 'a {"b":1}\nc' },
    "返回值是它的 JSON 文本，console 的每次调用是一行",
  );
  const nothing = await oneRun("const x = 1;");
  assert.deepEqual(nothing, { ok: true, output: "" }, "没有 return 的脚本是 ok、没有 value");
});

test("一次运行：throw、语法错误与工具的拒绝都是 ok:false 和一行错误，宿主不崩", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const thrown = await oneRun("console.log('之前'); throw new Error('坏了\\n第二行')");
  const syntax = await oneRun("return (");
  const rejected = await oneRun("return await tools.fails({})", { fails: () => ({ ok: false, text: "工具失败" }) });
  for (const run of [thrown, syntax, rejected]) {
    assert.equal(run.ok, false, "脚本失败是 ok:false 的结果，不是宿主抛出的异常");
    assert.equal(run.ok === false && run.failure, "error", "throw、语法错误与没被 catch 的拒绝都是 failure error");
    assertOneLine(run.ok === false ? run.error : undefined);
  }
  assert.equal(thrown.ok === false && thrown.error, "Error: 坏了", "throw 的消息只留第一行，成为那一行错误");
  assert.equal(thrown.output, "之前", "失败的运行也带回失败之前的 console 输出");
  assert.match(syntax.ok === false ? syntax.error : "", /SyntaxError/, "语法错误说出 SyntaxError");
  assert.match(rejected.ok === false ? rejected.error : "", /工具失败/, "没被 catch 的工具拒绝带着工具的错误结束运行");
});

test("一次运行：每个回复之后跑完待办的 job；永远不兑现的 promise 立刻 stalled", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const echo = { echo: (args: string) => ({ ok: true, text: args }) };
  const awaited = await oneRun(
    "const a = await tools.echo({n: 1}); const b = await tools.echo({n: 2}); return a + b",
    echo,
  );
  assert.deepEqual(
    awaited,
    { ok: true, value: '"{\\"n\\":1}{\\"n\\":2}"', output: "" },
    "每个回复之后都跑完待办的 job，脚本才看得见回复、接着走下去",
  );
  const direct = await oneRun("await new Promise(() => {})");
  const chained = await oneRun("await tools.echo({}).then(() => new Promise(() => {})).then(() => 2)", echo);
  for (const run of [direct, chained]) {
    assert.equal(
      run.ok === false && run.failure,
      "stalled",
      "待办的 job 都跑完、没有嵌套调用在途、promise 还没兑现：立刻 stalled",
    );
    assertOneLine(run.ok === false ? run.error : undefined);
  }
});

// ─── Lab 16.2 · 桥 ───

const BOUNDS = {
  maxCalls: 256,
  maxArgumentBytes: 8192,
  maxTotalArgumentBytes: 32_768,
  maxReplyBytes: 1024 * 1024,
  maxRecordedText: 500,
};

test("桥：嵌套调用的 id 是 <父>/<n>，记下名字、参数与结果；一个失败不丢其他调用的结果", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const bridge = new NestedCallBridge("call_7", [echoTool(), failingTool()], BOUNDS);
  const answers = await Promise.all([
    bridge.call("echo", '{"n":1}'),
    bridge.call("fails", "{}"),
    bridge.call("echo", '{"n":2}'),
  ]);
  assert.deepEqual(
    answers.map((answer) => ("ok" in answer ? answer.ok : "end")),
    [true, false, true],
    "失败的调用只让它自己的回答是 ok:false",
  );
  assert.deepEqual(
    bridge.calls.map(({ id, name, arguments: args, outcome }) => ({ id, name, args, outcome })),
    [
      { id: "call_7/1", name: "echo", args: '{"n":1}', outcome: "ok" },
      { id: "call_7/2", name: "fails", args: "{}", outcome: "error" },
      { id: "call_7/3", name: "echo", args: '{"n":2}', outcome: "ok" },
    ],
    "每个嵌套调用按到达顺序记下 <父>/<n>、名字、参数的 JSON 与结果",
  );
});

test("桥：只提供可调用的工具，未知的名字得到 did you mean，被拒绝的调用也记下；关桥时在途的调用记为 cancelled", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const read = await withWorkspace(async (_root, tools) => tools.filter((tool) => tool.name === "read"));
  const waits = waitingTool();
  const bridge = new NestedCallBridge("c", [...read, waits.tool], BOUNDS);
  const typo = await bridge.call("raed", '{"path":"a"}');
  assert.match("text" in typo ? typo.text : "", /did you mean read\?/, "打错的名字得到最接近的可调用工具名");
  const bash = await bridge.call("bash", '{"command":"true"}');
  assert.match("text" in bash ? bash.text : "", /unknown tool "bash"/, "不在可调用集合里的 bash 是未知的工具");
  const list = await bridge.call("read", "[1]");
  assert.equal("ok" in list && list.ok, false, "参数不是对象的调用被拒绝");
  assert.deepEqual(
    bridge.calls.map((call) => call.outcome),
    ["refused", "refused", "refused"],
    "被拒绝的调用也有记录，结果是 refused",
  );
  const pending = bridge.call("waits", "{}");
  await waits.started;
  bridge.close("the run has ended");
  assert.equal(bridge.calls[3]?.outcome, "cancelled", "close() 时还在途的调用记为 cancelled");
  assert.ok(waits.aborted(), "close() 时在途的工具收到中止信号");
  const cancelled = await pending;
  assert.equal("ok" in cancelled && cancelled.ok, false, "关桥时在途的调用得到 ok:false 的回答");
  const late = await bridge.call("read", '{"path":"a"}');
  assert.equal("ok" in late && late.ok, false, "close() 之后的调用不运行");
  assert.equal(bridge.calls.length, 4, "close() 之后的调用不记录");
});

test("桥：调用次数、单次参数字节、参数总字节、回复字节与错误文字都有上限", { timeout: TEST_TIMEOUT_MS }, async () => {
  const few = new NestedCallBridge("c", [echoTool()], { ...BOUNDS, maxCalls: 2 });
  await few.call("echo", "{}");
  await few.call("echo", "{}");
  const third = await few.call("echo", "{}");
  assert.ok("end" in third, "超过调用次数上限的调用结束整次运行");
  assert.equal(few.calls.length, 2, "超过次数上限的调用不运行、不记录");
  const small = new NestedCallBridge("c", [echoTool()], {
    ...BOUNDS,
    maxArgumentBytes: 100,
    maxTotalArgumentBytes: 150,
  });
  const big = await small.call("echo", JSON.stringify({ s: "x".repeat(500) }));
  assert.match("text" in big ? big.text : "", /at most 100/, "单次参数超过上限的调用被拒绝（脚本可以 catch）");
  assert.equal(small.calls[0]?.arguments, "[508 bytes, not kept]", "太大的参数不记下，只记字节数");
  await small.call("echo", JSON.stringify({ s: "x".repeat(80) }));
  const over = await small.call("echo", JSON.stringify({ s: "x".repeat(80) }));
  assert.ok("end" in over, "参数总字节超过上限就结束这次运行");
  const noisy = new NestedCallBridge("c", [failingTool("e".repeat(5000))], BOUNDS);
  await noisy.call("fails", "{}");
  assert.ok((noisy.calls[0]?.text.length ?? 0) <= 501, "记录里的错误文字最多 maxRecordedText 个字符");
  const narrow = new NestedCallBridge("c", [echoTool()], { ...BOUNDS, maxReplyBytes: 100 });
  const fits = await narrow.call("echo", JSON.stringify({ s: "x".repeat(92) }));
  const tooBig = await narrow.call("echo", JSON.stringify({ s: "x".repeat(93) }));
  assert.deepEqual(
    [fits, tooBig].map((answer) => "ok" in answer && answer.ok),
    [true, false],
    "回复的字节有上限：刚好 maxReplyBytes 的结果照常送进 worker，多一个字节的只让这次调用失败",
  );
  assert.match(
    "text" in tooBig ? tooBig.text : "",
    /^the result of echo is 101 bytes; a script may receive at most 100 bytes per call/,
    "超过回复上限的调用得到一行错误，说出结果的字节数与上限，不是结果本身",
  );
  assert.equal(narrow.calls[1]?.outcome, "error", "超过回复上限的调用记为 error");
});

// ─── Lab 16.3 · 限制 ───

/** A run ended by its deadline, an abort or the worker's result keeps that ending: the exit that follows is too late. */
function assertEndedOnce(run: CodeRun): void {
  assert.doesNotMatch(
    run.error ?? "",
    /stopped before the script finished/,
    "end() 只生效一次：先到的结束（截止时间、中止、worker 的结果）说了算，随后 worker 的 exit 不能把它改写成 error",
  );
}

test("限制：墙钟截止时间打断引擎并结束 worker，运行以 timeout 结束", { timeout: TEST_TIMEOUT_MS }, async () => {
  const run = await runCode({
    code: "globalThis.leak = 1; Object.prototype.mark = 2; while (true) {}",
    tools: [],
    parentId: "c",
    limits: { timeoutMs: 300 },
  });
  assertEndedOnce(run);
  assert.equal(run.failure, "timeout", "死循环到截止时间被打断，失败是 timeout");
  const next = await runCode({ code: "return [typeof leak, ({}).mark === undefined]", tools: [], parentId: "c" });
  assert.deepEqual(
    next.value,
    ["undefined", true],
    "每次运行一个新的 worker 与 VM：上一次留下的全局变量和改过的原型，下一次看不到",
  );
  assertOneLine(run.error);
  assertHostUntouched();
});

test("限制：内存炸弹（引擎的上限或 worker 的堆）是这次运行的 out of memory，超过上限的输出被截断并附一行说明", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // A small engine limit: the bomb hits it after a few megabytes, not after filling 64 MiB (seconds on a loaded machine).
  const bomb = await runCode({
    code: "return new Array(1e9).fill(0).length",
    tools: [],
    parentId: "c",
    limits: { memoryBytes: 4 * 1024 * 1024 },
  });
  assertEndedOnce(bomb);
  assert.equal(bomb.failure, "memory", "超过内存上限的分配是这次运行的 memory 失败");
  assert.match(bomb.error ?? "", /out of memory/, "错误说出 out of memory");
  // A real worker heap exhaustion can abort the whole process, so the worker's error is classified directly.
  const heap = workerError(
    Object.assign(new Error("Worker terminated due to reaching memory limit: JS heap out of memory"), {
      code: "ERR_WORKER_OUT_OF_MEMORY",
    }),
  );
  assert.equal(
    heap.failure,
    "memory",
    "worker 的 V8 堆耗尽（ERR_WORKER_OUT_OF_MEMORY）也是这次运行的 memory 失败，不是 error",
  );
  assert.match(heap.message, /^out of memory/, "worker 的堆耗尽时错误说出 out of memory");
  assert.deepEqual(
    workerError(new Error("boom\n    at somewhere")),
    { failure: "error", message: "the sandbox failed: boom" },
    "worker 的其他错误是 error，只留第一行",
  );
  const loud = await runCode({
    code: "for (let i = 0; i < 50; i++) console.log('line ' + i + ' ' + 'x'.repeat(20))",
    tools: [],
    parentId: "c",
    limits: { maxOutputChars: 200 },
  });
  assert.ok(loud.output.length < 300, "输出在上限处截断");
  assert.match(loud.output, /\[output cut at 200 characters\]/, "截断处附一行说明");
  assertHostUntouched();
});

test("限制：调用方中止时在途的嵌套调用标为 cancelled，运行以 aborted 结束", { timeout: TEST_TIMEOUT_MS }, async () => {
  const waits = waitingTool();
  const controller = new AbortController();
  // Released right after the abort: a run that never listened to the abort then finishes normally, and says so.
  void waits.started.then(() => {
    controller.abort();
    waits.release();
  });
  const run = await runCode({
    code: "await tools.waits({})",
    tools: [waits.tool],
    parentId: "c",
    signal: controller.signal,
  });
  assertEndedOnce(run);
  assert.equal(
    run.failure,
    "aborted",
    "调用方的中止结束这次运行，失败是 aborted（runCode 监听 signal 的 abort，不等脚本跑完）",
  );
  assert.equal(run.calls[0]?.outcome, "cancelled", "中止时还在途的嵌套调用记为 cancelled");
  assert.ok(waits.aborted(), "在途的工具收到了中止信号");
  assertHostUntouched();
});

// ─── Lab 16.4 · code 工具 ───

test("code 工具：结果的 details 带着嵌套调用；脚本读 20 个文件只返回一行摘要", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withWorkspace(async (root, tools) => {
    for (let i = 0; i < 20; i++) await writeFile(path.join(root, `f${i}.txt`), `file ${i}\n`.repeat(i + 1));
    const registry = new ToolRegistry();
    for (const tool of tools) registry.register(tool);
    registry.register(
      createCodeTool({ callable: () => [...tools, registry.get("code")].filter((t) => t !== undefined) }),
    );
    const code = `let lines = 0;
for (let i = 0; i < 20; i++) lines += (await tools.read({path: "f" + i + ".txt"})).split("\\n").filter(Boolean).length;
try { await tools.code({code: "return 1"}) } catch {}
return "20 files, " + lines + " lines";`;
    const result = await executeToolCall(
      { type: "toolCall", id: "call_1", name: "code", arguments: { code } },
      registry,
      {},
    );
    assert.equal(result.isError, false, "成功的脚本是一个成功的工具结果");
    assert.match(result.content[0]?.text ?? "", /20 files, 210 lines/, "结果的文字是脚本返回的那一行");
    const details = result.details as CodeDetails;
    const reads = details.calls.filter((call) => call.name === "read");
    assert.equal(reads.length, 20, "details.calls 带着每一个嵌套调用");
    assert.ok(
      reads.every((call) => call.outcome === "ok"),
      "每个嵌套的 read 都成功",
    );
    assert.equal(
      details.calls.find((call) => call.name === "code")?.outcome,
      "refused",
      "code 是只给模型的工具：脚本不能再调用 code",
    );
    assert.equal(await readFile(path.join(root, "f0.txt"), "utf8"), "file 0\n", "脚本只读文件，工作区里的文件不变");
  });
});

test("code 工具：超时的脚本是一个说出失败的工具结果（不抛出），循环接着走；中止时这一轮以 aborted 结束", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const tools = new ToolRegistry();
  tools.register(createCodeTool({ callable: () => [], limits: { timeoutMs: 300 } }));
  const model = new ScriptedModel([
    codeCall("c1", "while (true) {}"),
    { role: "assistant", content: [text("超时了，换个办法。")], stopReason: "stop" },
  ] as never);
  const result = await runAgentLoop({ model, tools, context: { messages: [] } });
  assert.equal(result.reason, "stop", "超时只是这个工具结果出错，循环把它交给模型，接着走到 stop");
  const timedOut = result.messages.find((message) => message.role === "toolResult");
  assert.match(JSON.stringify(timedOut), /failed: timeout/, "工具结果说出 timeout");
  const timedOutDetails = (timedOut as { details?: CodeDetails } | undefined)?.details;
  assert.deepEqual(
    [timedOutDetails?.ok, timedOutDetails?.failure],
    [false, "timeout"],
    "失败的运行在 details 里带着 ok:false 与 failure",
  );

  const stopped = new AbortController();
  stopped.abort();
  await assert.rejects(
    createCodeTool({ callable: () => [] }).execute({ code: "return 1" }, { signal: stopped.signal }),
    /aborted/,
    "调用方中止时 execute() 抛出一行错误，不是给模型看的结果",
  );

  const waits = waitingTool();
  const abortable = new ToolRegistry();
  abortable.register(createCodeTool({ callable: () => [waits.tool] }));
  const controller = new AbortController();
  void waits.started.then(() => {
    controller.abort();
    waits.release();
  });
  const aborted = await runAgentLoop({
    model: new ScriptedModel([
      codeCall("c1", "await tools.waits({})"),
      { role: "assistant", content: [text("不该到这里")], stopReason: "stop" },
    ] as never),
    tools: abortable,
    context: { messages: [] },
    signal: controller.signal,
  });
  assert.equal(aborted.reason, "aborted", "调用方中止了运行中的脚本：这一轮以 aborted 结束，不再请求模型");
  assertHostUntouched();
});

test("code 工具：延迟的工具可以从脚本调用，却不向模型声明", { timeout: TEST_TIMEOUT_MS }, async () => {
  const registry = new ExposedRegistry();
  registry.register(echoTool(), "deferred");
  registry.register(failingTool(), "hidden");
  registry.register(createCodeTool({ callable: () => registry.reachable() }));
  assert.deepEqual(
    registry.definitions().map((tool) => tool.name),
    ["code"],
    "模型只被告知 code：延迟的 echo 不声明",
  );
  const result = await executeToolCall(
    {
      type: "toolCall",
      id: "c1",
      name: "code",
      arguments: {
        code: "const a = await tools.echo({n: 1}); try { await tools.fails({}) } catch (e) { return [a, e.message] }",
      },
    },
    registry,
    {},
  );
  const details = result.details as CodeDetails;
  assert.deepEqual(
    details.calls.map((call) => [call.name, call.outcome]),
    [
      ["echo", "ok"],
      ["fails", "refused"],
    ],
    "脚本能调用延迟的工具（reachable()），隐藏的工具仍是未知的",
  );
  assert.deepEqual(
    registry.definitions().map((tool) => tool.name),
    ["code"],
    "从脚本调用不激活延迟的工具",
  );
  const second = await executeToolCall(
    { type: "toolCall", id: "c2", name: "code", arguments: { code: "return await tools.echo({n: 2})" } },
    registry,
    {},
  );
  assert.deepEqual(
    [...details.calls, ...(second.details as CodeDetails).calls].map((call) => call.id),
    ["code-1/1", "code-1/2", "code-2/1"],
    "嵌套调用的 id 的父是 code-<第几次运行>：第二次运行从 code-2/1 开始",
  );
});
