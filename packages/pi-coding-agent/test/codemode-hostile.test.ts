// Hostile scripts against the codemode sandbox (chapter 16). Each one must end its run with one
// line, leave the host and its other tools untouched, and leave no worker thread behind. Deadlines
// here only decide that a run ends as a timeout, never how fast anything is: a script that should
// finish gets a minute (the deadline counts the worker's start, slow on a loaded machine).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { type Tool, ToolRegistry, text } from "@pi/core";
import { runCode } from "../src/codemode/index.js";
import { permissionGate } from "../src/host/permission-gate.js";
import { hookedRegistry } from "../src/index.js";
import { assertHostUntouched, assertOneLine, echoTool, waitingTool, withWorkspace } from "./codemode-fixture.js";

const hostile = (code: string, tools: Tool[] = [echoTool()], timeoutMs = 60_000) =>
  runCode({ code, tools, parentId: "c", limits: { timeoutMs } });

/** After a hostile run: the host is untouched and a plain run with a tool still works. */
async function assertStillWorks(): Promise<void> {
  assertHostUntouched();
  const plain = await runCode({ code: "return await tools.echo({ok: 1})", tools: [echoTool()], parentId: "c" });
  assert.deepEqual(plain.value, '{"ok":1}', "之后的运行和其他工具照常工作");
}

test("敌意脚本 while(true){}：截止时间到，运行以 timeout 结束", async () => {
  const run = await hostile("while (true) {}", [], 2_000);
  assert.equal(run.failure, "timeout");
  assertOneLine(run.error);
  await assertStillWorks();
});

test("敌意脚本 深递归：栈上限让它成为一行 RangeError", async () => {
  const run = await hostile("function f(n) { return f(n + 1) + 1 } return f(0)", [], 60_000);
  assert.equal(run.ok, false);
  assert.match(run.error ?? "", /call stack|stack overflow/i);
  assertOneLine(run.error);
  await assertStillWorks();
});

test("敌意脚本 4 GB 字符串：在引擎里失败，宿主不分配", async () => {
  const repeat = await hostile("return 'x'.repeat(2 ** 32)", [], 60_000);
  const doubling = await hostile("let s = 'x'.repeat(1 << 20); while (true) s = s + s; return s.length", [], 60_000);
  for (const run of [repeat, doubling]) {
    assert.equal(run.ok, false);
    assert.match(run.error ?? "", /string too long|out of memory/i, "长度或内存上限让它失败，而不是靠截止时间");
    assertOneLine(run.error);
  }
  await assertStillWorks();
});

test("敌意脚本 new Array(1e9)：填充它是这次运行的 out of memory；把它当结果返回也只结束这次运行", async () => {
  const filled = await hostile("return new Array(1e9).fill(0).length", [], 60_000);
  assert.equal(filled.failure, "memory");
  const returned = await hostile("return new Array(1e9)", [], 2_000);
  assert.equal(returned.ok, false);
  assert.ok(["memory", "timeout", "error"].includes(returned.failure ?? ""), `${returned.failure}: ${returned.error}`);
  assertOneLine(returned.error);
  await assertStillWorks();
});

test("敌意脚本 永不兑现的 promise 链：立刻 stalled，不等截止时间", async () => {
  const run = await hostile(
    "let p = Promise.resolve(); for (let i = 0; i < 1000; i++) p = p.then(() => i); await p.then(() => new Promise(() => {}))",
    [],
    60_000,
  );
  assert.equal(run.failure, "stalled");
  await assertStillWorks();
});

test("敌意脚本 够不着 process、require、import()、Function 构造器里的 process、Atomics.wait", async () => {
  const reach = await hostile(
    `return [typeof process, typeof require, globalThis.constructor.constructor("return typeof process")(),
typeof globalThis.constructor.constructor("return this")().process, typeof module, typeof fetch, typeof setTimeout]`,
  );
  assert.deepEqual(reach.value, Array(7).fill("undefined"), "沙箱里没有宿主的任何能力");
  const imported = await hostile("return await import('node:fs')");
  const atomics = await hostile("return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)");
  const fnProcess = await hostile("return globalThis.constructor.constructor('return process')().pid");
  for (const run of [imported, atomics, fnProcess]) {
    assert.equal(run.ok, false);
    assertOneLine(run.error);
  }
  await assertStillWorks();
});

test("敌意脚本 跨桥的原型污染：参数和结果里的 __proto__、constructor 键污染不了宿主", async () => {
  const received: Record<string, unknown>[] = [];
  const run = await hostile(
    `const evil = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "path": "a"}');
await tools.echo(evil);
return JSON.parse('{"__proto__": {"polluted": 3}, "constructor": {"prototype": {"polluted": 4}}}');`,
    [echoTool(received)],
  );
  assert.equal(run.ok, true, run.error);
  const args = received[0] ?? {};
  assert.equal(Object.getPrototypeOf(args), Object.prototype, "参数对象的原型没有被换掉");
  assert.equal(Object.hasOwn(args, "__proto__"), false, "__proto__ 键在边界上被丢掉");
  assert.equal(args.polluted, undefined);
  const value = run.value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(value.polluted, undefined);
  assert.equal(Object.assign({}, value).polluted, undefined, "合并结果也不污染");
  await assertStillWorks();
});

test("敌意脚本 运行结束后的嵌套调用：不运行；结束时还在途的调用被取消", async () => {
  await withWorkspace(async (root, tools) => {
    const late = await runCode({
      code: `Promise.resolve().then(() => 0).then(() => tools.write({path: "late.txt", content: "x"})); return "done"`,
      tools,
      parentId: "c",
    });
    assert.equal(late.value, "done");
    assert.equal(late.calls.length, 0, "返回之后排队的调用没有发出");
    assert.equal(existsSync(path.join(root, "late.txt")), false, "文件没有被写");
  });
  const waits = waitingTool();
  const pending = await runCode({ code: "tools.waits({}); return 1", tools: [waits.tool], parentId: "c" });
  assert.equal(pending.ok, true);
  assert.ok(
    pending.calls.every((call) => call.outcome === "cancelled"),
    "结束时在途的调用标为 cancelled",
  );
  if (pending.calls.length > 0) {
    await waits.started;
    assert.ok(waits.aborted(), "在途的工具收到了中止信号");
  }
  await assertStillWorks();
});

test("敌意脚本 100,000 次嵌套调用：第 257 次结束这次运行，只运行并记录了 256 次", async () => {
  const received: Record<string, unknown>[] = [];
  const fired = await hostile(
    "for (let i = 0; i < 100000; i++) tools.echo({i}); return 1",
    [echoTool(received)],
    60_000,
  );
  const awaited = await hostile(
    "for (let i = 0; i < 100000; i++) await tools.echo({i}); return 1",
    [echoTool()],
    60_000,
  );
  for (const run of [fired, awaited]) {
    assert.equal(run.failure, "limit");
    assert.equal(run.calls.length, 256);
    assertOneLine(run.error);
  }
  assert.ok(received.length <= 256, "超出上限的调用一次也没有运行");
  await assertStillWorks();
});

test("敌意脚本 带 getter 或环的结果和参数：getter 在沙箱里求值，环是一行错误", async () => {
  const getter = await hostile("let n = 0; return { get x() { n += 1; return n } }");
  assert.deepEqual(getter.value, { x: 1 }, "getter 在沙箱里只求值一次，宿主拿到的是数据");
  const cycle = await hostile("const a = {}; a.self = a; return a");
  const cyclicArgs = await hostile("const a = {}; a.self = a; return await tools.echo(a)");
  const throwingGetter = await hostile("return { get x() { throw new Error('getter') } }");
  for (const run of [cycle, cyclicArgs, throwingGetter]) {
    assert.equal(run.ok, false);
    assertOneLine(run.error);
  }
  assert.match(cycle.error ?? "", /not JSON/);
  await assertStillWorks();
});

test("敌意结果 一个 40 MB 的工具结果：不进 worker 的堆，只让那次调用失败并说出上限，宿主活着", async () => {
  // A worker whose V8 heap runs out can abort the whole process (Node 20), so no reply may be big enough to do it.
  const huge: Tool = {
    name: "huge",
    description: "Answers with 40 MB of text.",
    parameters: { type: "object" },
    async execute() {
      return { content: [text("x".repeat(40 * 1024 * 1024))] };
    },
  };
  const caught = await hostile("try { await tools.huge({}); return 'received' } catch (e) { return e.message }", [
    huge,
    echoTool(),
  ]);
  assert.equal(caught.ok, true, caught.error);
  assert.match(String(caught.value), /at most 1048576 bytes/, "脚本 catch 到的一行错误说出每次调用的回复上限");
  assert.equal(caught.calls[0]?.outcome, "error", "超过回复上限的调用记为 error");
  assert.ok((caught.calls[0]?.text.length ?? 0) <= 501, "记录里只有那一行错误，不是 40 MB 的结果");
  const uncaught = await hostile("return (await tools.huge({})).length", [huge]);
  assert.equal(uncaught.failure, "error", "没被 catch 的超限回复结束这次运行，失败是 error");
  assert.match(uncaught.error ?? "", /at most 1048576 bytes/);
  assertOneLine(uncaught.error);
  await assertStillWorks();
});

test("权限门照样管嵌套的 write：受保护路径即使 --yes 也拒绝，没有终端又没 --yes 时拒绝", async () => {
  await withWorkspace(async (root, tools) => {
    await mkdir(path.join(root, ".git"));
    const gated = (yes: boolean) => {
      const registry = new ToolRegistry();
      for (const tool of tools) registry.register(tool);
      const gate = permissionGate({ workspace: root, yes, protectedPaths: [".git/"], notes: { write: () => true } });
      const hooked = hookedRegistry(registry, { before: [gate], after: [] });
      return hooked.definitions().flatMap(({ name }) => hooked.get(name) ?? []);
    };
    const script = (file: string) => `return await tools.write({path: ${JSON.stringify(file)}, content: "x"})`;
    const protectedRun = await runCode({ code: script(".git/config"), tools: gated(true), parentId: "c" });
    assert.equal(protectedRun.ok, false);
    assert.match(protectedRun.error ?? "", /protected path/);
    assert.equal(existsSync(path.join(root, ".git", "config")), false, ".git/ 里什么也没写");
    const noTerminal = await runCode({ code: script("a.txt"), tools: gated(false), parentId: "c" });
    assert.match(noTerminal.error ?? "", /no terminal/);
    assert.equal(existsSync(path.join(root, "a.txt")), false);
    const allowed = await runCode({ code: script("a.txt"), tools: gated(true), parentId: "c" });
    assert.equal(allowed.ok, true, allowed.error);
    assert.equal(await readFile(path.join(root, "a.txt"), "utf8"), "x");
  });
});
