// Codemode (chapter 16): one script in a fresh QuickJS VM inside a worker thread, calling tools
// through the message bridge. Real engine, real worker, real workspace tools in a temp folder.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { executeToolCall, ToolRegistry } from "@pi/core";
import { type CodeDetails, createCodeTool, runCode } from "../src/codemode/index.js";
import {
  assertHostUntouched,
  assertOneLine,
  echoTool,
  failingTool,
  waitingTool,
  withWorkspace,
} from "./codemode-fixture.js";

test("一次运行：脚本的返回值和 console 输出都带回来", async () => {
  const run = await runCode({ code: "console.log('a', {b: 1}); return {sum: 1 + 2}", tools: [], parentId: "c" });
  assert.deepEqual(
    { ok: run.ok, value: run.value, output: run.output },
    { ok: true, value: { sum: 3 }, output: 'a {"b":1}' },
  );
  assertHostUntouched();
});

test("每次运行都是新的 VM：上一次留下的全局变量和改过的原型，下一次看不到", async () => {
  await runCode({ code: "globalThis.leak = 1; Object.prototype.mark = 2; return 0", tools: [], parentId: "c" });
  const next = await runCode({ code: "return [typeof leak, ({}).mark === undefined]", tools: [], parentId: "c" });
  assert.deepEqual(next.value, ["undefined", true], "新 VM 里没有上一次的痕迹");
});

test("throw、语法错误、工具的拒绝都成为 ok:false 和一行错误，宿主不崩", async () => {
  const thrown = await runCode({ code: "throw new Error('坏了')", tools: [], parentId: "c" });
  const syntax = await runCode({ code: "return (", tools: [], parentId: "c" });
  const rejected = await runCode({
    code: "return await tools.fails({})",
    tools: [failingTool("工具失败")],
    parentId: "c",
  });
  for (const run of [thrown, syntax, rejected]) {
    assert.equal(run.ok, false);
    assertOneLine(run.error);
  }
  assert.match(thrown.error ?? "", /坏了/);
  assert.match(syntax.error ?? "", /SyntaxError/);
  assert.match(rejected.error ?? "", /工具失败/);
  assertHostUntouched();
});

test("永远不会兑现的 promise 立刻以 stalled 失败，不等截止时间", async () => {
  const direct = await runCode({ code: "await new Promise(() => {})", tools: [], parentId: "c" });
  const chained = await runCode({
    code: "await Promise.resolve(1).then(() => new Promise(() => {})).then(() => 2)",
    tools: [],
    parentId: "c",
  });
  for (const run of [direct, chained]) {
    assert.equal(run.failure, "stalled", "没有工具调用在途、promise 还没兑现：卡住了");
    assertOneLine(run.error);
  }
  assertHostUntouched();
});

test("桥：嵌套调用的 id 是 <父>/<n>，记下名字、参数和结果；一个失败不丢其他调用的结果", async () => {
  const run = await runCode({
    code: `const all = await Promise.allSettled([tools.echo({n: 1}), tools.fails({}), tools.echo({n: 2})]);
return all.map((r) => r.status);`,
    tools: [echoTool(), failingTool()],
    parentId: "call_7",
  });
  assert.deepEqual(run.value, ["fulfilled", "rejected", "fulfilled"]);
  assert.deepEqual(
    run.calls.map(({ id, name, arguments: args, outcome }) => ({ id, name, args, outcome })),
    [
      { id: "call_7/1", name: "echo", args: '{"n":1}', outcome: "ok" },
      { id: "call_7/2", name: "fails", args: "{}", outcome: "error" },
      { id: "call_7/3", name: "echo", args: '{"n":2}', outcome: "ok" },
    ],
  );
});

test("桥只提供可调用的工具：未知名字得到 did you mean，调用被拒绝也被记下", async () => {
  const run = await runCode({
    code: "try { await tools.raed({path: 'a'}) } catch (e) { return e.message }",
    tools: await withWorkspace(async (_root, tools) => tools.filter((tool) => tool.name === "read")),
    parentId: "c",
  });
  assert.match(String(run.value), /did you mean read\?/);
  assert.equal(run.calls[0]?.outcome, "refused");
  const bash = await runCode({
    code: "return await tools.bash({command: 'true'})",
    tools: [echoTool()],
    parentId: "c",
  });
  assert.equal(bash.ok, false, "不在可调用集合里的 bash 不能从脚本调用");
  assert.match(bash.error ?? "", /unknown tool "bash"/);
});

test("边界：调用次数、单次参数字节、参数总字节、错误文字都有上限", async () => {
  const many = await runCode({
    code: "for (let i = 0; i < 10; i++) await tools.echo({i})",
    tools: [echoTool()],
    parentId: "c",
    limits: { maxCalls: 3 },
  });
  assert.equal(many.failure, "limit");
  assert.equal(many.calls.length, 3, "超过次数上限的调用不运行、不记录");
  const big = await runCode({
    code: "try { await tools.echo({s: 'x'.repeat(500)}) } catch (e) { return e.message }",
    tools: [echoTool()],
    parentId: "c",
    limits: { maxArgumentBytes: 100 },
  });
  assert.match(String(big.value), /at most 100/);
  assert.equal(big.calls[0]?.outcome, "refused");
  const total = await runCode({
    code: "for (let i = 0; i < 5; i++) await tools.echo({s: 'x'.repeat(50)})",
    tools: [echoTool()],
    parentId: "c",
    limits: { maxTotalArgumentBytes: 150 },
  });
  assert.equal(total.failure, "limit");
  assert.match(total.error ?? "", /150 bytes/);
  const long = await runCode({ code: "await tools.fails({})", tools: [failingTool("e".repeat(5000))], parentId: "c" });
  assert.ok((long.calls[0]?.text.length ?? 0) <= 501, "记录里的错误文字被截短");
  assertOneLine(long.error);
});

test("限制：墙钟截止时间打断引擎、结束 worker，运行以 timeout 结束", async () => {
  const run = await runCode({ code: "while (true) {}", tools: [], parentId: "c", limits: { timeoutMs: 500 } });
  assert.equal(run.failure, "timeout");
  assertOneLine(run.error);
  assertHostUntouched();
});

test("限制：内存炸弹成为这次运行的 out of memory 错误", async () => {
  const run = await runCode({ code: "return new Array(1e9).fill(0).length", tools: [], parentId: "c" });
  assert.equal(run.failure, "memory");
  assert.match(run.error ?? "", /out of memory/);
  assertHostUntouched();
});

test("限制：超过上限的输出被截断并附一行说明", async () => {
  const run = await runCode({
    code: "for (let i = 0; i < 50; i++) console.log('line ' + i + ' ' + 'x'.repeat(20))",
    tools: [],
    parentId: "c",
    limits: { maxOutputChars: 200 },
  });
  assert.ok(run.output.length < 300, "输出被截断");
  assert.match(run.output, /\[output cut at 200 characters\]/);
});

test("调用方中止：在途的嵌套调用标为 cancelled，运行以 aborted 结束", async () => {
  const waits = waitingTool();
  const controller = new AbortController();
  void waits.started.then(() => controller.abort());
  const run = await runCode({
    code: "await tools.waits({})",
    tools: [waits.tool],
    parentId: "c",
    signal: controller.signal,
  });
  assert.equal(run.failure, "aborted");
  assert.equal(run.calls[0]?.outcome, "cancelled");
  assert.ok(waits.aborted(), "工具收到了中止信号");
  assertHostUntouched();
});

test("code 工具：结果的 details 带着嵌套调用；脚本读 20 个文件只返回一行摘要", async () => {
  await withWorkspace(async (root, tools) => {
    for (let i = 0; i < 20; i++) await writeFile(path.join(root, `f${i}.txt`), `file ${i}\n`.repeat(i + 1));
    const registry = new ToolRegistry();
    for (const tool of tools) registry.register(tool);
    registry.register(createCodeTool({ callable: () => tools }));
    const code = `let lines = 0;
for (let i = 0; i < 20; i++) lines += (await tools.read({path: "f" + i + ".txt"})).split("\\n").filter(Boolean).length;
return "20 files, " + lines + " lines";`;
    const result = await executeToolCall(
      { type: "toolCall", id: "call_1", name: "code", arguments: { code } },
      registry,
      {},
    );
    assert.equal(result.isError, false);
    assert.match(result.content[0]?.text ?? "", /20 files, 210 lines/);
    const details = result.details as CodeDetails;
    assert.equal(details.calls.length, 20);
    assert.ok(details.calls.every((call) => call.name === "read" && call.outcome === "ok"));
    assert.ok(!details.calls.some((call) => call.name === "code"), "脚本不能再调用 code");
    assert.equal(await readFile(path.join(root, "f0.txt"), "utf8"), "file 0\n");
  });
});
