// Chapter 13's focused tests: the composition root. Each drives the Runtime (or one of its parts)
// on a real session file in a real temp folder, with a scripted model, and names the rule it checks.
import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import {
  assistantMessage,
  type Message,
  type Model,
  type ScriptedModel,
  ToolRegistry,
  text,
  type UserMessage,
} from "@pi/core";
import { buildContext, estimateTokens } from "../src/compaction/index.js";
import { interactiveMode, printMode, runMode } from "../src/modes/modes.js";
import { activePath, contextAdapter, requestBudget } from "../src/runtime/context-adapter.js";
import { openRuntime as openAnyRuntime } from "../src/runtime/open.js";
import {
  type CompactHook,
  type CompactionTarget,
  RuntimeError,
  type RuntimeEvent,
  type RuntimeOptions,
} from "../src/runtime/types.js";
import { wireRuntime } from "../src/runtime/wiring.js";
import { messageEntry, newHeader, type SessionEntry } from "../src/session/entries.js";
import { InMemorySessionStore, type SessionStore } from "../src/session/memory-store.js";
import {
  arrivalWhile,
  asks,
  boundedAgent,
  counting,
  held,
  lookTools,
  noArrivalBefore,
  partsOf,
  runaways,
  says,
  scripted,
  sent,
  sessionFile,
  settle,
  TRANSCRIPT_READS,
  withDir,
} from "./runtime-fixture.js";
import { AT, answer, user } from "./session-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 5_000;

/**
 * Every Runtime here runs chapter 09's Agent behind bounded transcripts (boundedAgent): a recordUpTo
 * that never stops reading is stopped at the bound, so no test spins until the file's time limit.
 */
function openRuntime(options: RuntimeOptions) {
  return openAnyRuntime({ engine: boundedAgent(), ...options });
}

const SURFACE = [
  "abort",
  "compaction",
  "dispose",
  "failure",
  "flush",
  "leafId",
  "messages",
  "prompt",
  "queued",
  "steer",
  "subscribe",
  "systemPrompt",
];

function isOneLine(message: string): boolean {
  return message.length > 0 && !message.includes("\n");
}

// ---- Lab 13.1 · 打开 ----

test("打开：空会话打开一个 Runtime，它的控制面交不出 Agent、模型、工具或存储，空会话不接受 leaf", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir);
    const model = scripted(says("你好"));
    const parts = partsOf();
    const runtime = openRuntime({ session, model, parts });
    assert.deepEqual(Object.keys(runtime).sort(), SURFACE, "控制面只有这些成员，没有 agent、engine、model、session");
    for (const value of Object.values(runtime)) {
      assert.ok(value !== model && value !== session && value !== parts.tools, "控制面上的值不是模型、存储或工具本身");
    }
    assert.ok(Object.isFrozen(runtime), "控制面不能被加上成员");
    assert.throws(
      () => openRuntime({ session, leaf: "0000abcd", model, parts }),
      (error: unknown) => error instanceof RuntimeError && isOneLine(error.message) && /leaf/.test(error.message),
      "空会话指定 leaf：一行 RuntimeError",
    );
    assert.throws(
      () => openRuntime({ session, leaf: "", model, parts }),
      (error: unknown) => error instanceof RuntimeError && /打开空会话时不要指定 leaf/.test(error.message),
      "空会话打开时不指定叶子：给了 leaf（空字符串也是给了，比较 leaf !== undefined，不看真假）就是一行错误",
    );
    assert.deepEqual(runtime.messages(), [], "空会话的 Runtime 没有历史");
    assert.equal(runtime.leafId(), null, "空会话的第一个条目是根");
  });
});

test("打开：非空会话必须明确指定叶子，选中的路径被深拷贝进 Runtime", { timeout: TEST_TIMEOUT_MS }, async () => {
  // a1 has two continuations: u2 → a2, and u3 → a3 (the last one appended).
  const entries: SessionEntry[] = [
    user("0000000a", null, "第一个问题"),
    answer("0000000b", "0000000a", "第一个回答"),
    user("0000000c", "0000000b", "第二个问题"),
    answer("0000000d", "0000000c", "第二个回答"),
    user("0000000e", "0000000b", "换个问法"),
    answer("0000000f", "0000000e", "另一个回答"),
  ];
  // A store that hands out its own objects (a learner's might): the Runtime must copy what it keeps.
  const session: SessionStore = {
    header: { type: "session", version: 3, id: "5b0c6f2e-8a51-4d7e-9c2f-1e3a4b5c6d7e", timestamp: "", cwd: "/w" },
    entries: () => entries,
    leafId: () => entries.at(-1)?.id ?? null,
    has: (id) => entries.some((entry) => entry.id === id),
    pathTo(id) {
      const chain: SessionEntry[] = [];
      for (let at = entries.find((entry) => entry.id === id); at !== undefined; ) {
        chain.unshift(at);
        const parent: string | null = at.parentId;
        at = entries.find((entry) => entry.id === parent);
      }
      return chain;
    },
    messagesOnPath: () => [],
    append: async () => {},
  };
  const model = scripted(says("好"));
  assert.throws(
    () => openRuntime({ session, model, parts: partsOf() }),
    (error: unknown) => error instanceof RuntimeError && isOneLine(error.message) && /leaf/.test(error.message),
    "非空会话不指定 leaf：一行 RuntimeError，不猜最后一个条目",
  );
  assert.throws(
    () => openRuntime({ session, leaf: "00000bad", model, parts: partsOf() }),
    (error: unknown) => error instanceof RuntimeError && isOneLine(error.message) && /00000bad/.test(error.message),
    "不在会话里的 leaf：一行 RuntimeError，说出这个 id",
  );
  const other = openRuntime({ session, leaf: "0000000f", model: scripted(), parts: partsOf() });
  assert.deepEqual(
    other.messages().map((message) => message.content),
    ["第一个问题", [text("第一个回答")], "换个问法", [text("另一个回答")]],
    "恢复的是 session.pathTo(leaf)：从叶沿 parentId 回到根的那条路径，另一个分支的 c、d 不在里面（不是文件里叶之前的全部条目）",
  );
  const runtime = openRuntime({ session, leaf: "0000000d", model, parts: partsOf() });
  const first = entries[0] as Extract<SessionEntry, { type: "message" }>;
  (first.message as UserMessage).content = "被存储改掉了";
  entries.splice(1, 1);
  assert.deepEqual(
    runtime.messages().map((message) => message.content),
    ["第一个问题", [text("第一个回答")], "第二个问题", [text("第二个回答")]],
    "Runtime 的历史是选中叶子的那条路径，打开时深拷贝，之后存储怎么改都不受影响",
  );
  assert.equal(runtime.leafId(), "0000000d", "下一个条目接在选中的叶子下面");
});

// ---- Lab 13.2 · 上下文适配器 ----

/** A hand-made active path: `persisted` written, `queued` still on its way to the disk. */
function source(persisted: SessionEntry[], queued: SessionEntry[]): CompactionTarget {
  return {
    persisted: () => persisted,
    queued: () => queued,
    path: () => structuredClone([...persisted, ...queued]),
    appendEntry: () => assert.fail("这里不压缩"),
    newId: () => "0000ffff",
  };
}

const REQUEST_TOOLS = lookTools().definitions();

test("上下文适配器：还没写进磁盘的后缀只为这一次请求接在活动路径后面", { timeout: TEST_TIMEOUT_MS }, async () => {
  const persisted = [user("0000000a", null, "旧问题"), answer("0000000b", "0000000a", "旧回答")];
  const queued = [user("0000000c", "0000000b", "新问题")];
  const inner = scripted(says("一"), says("二"));
  const adapter = contextAdapter(inner, source(persisted, queued));
  const agentTranscript: Message[] = [{ role: "user", content: "新问题", timestamp: 1 }];
  for (let round = 0; round < 2; round += 1) {
    const stream = adapter.stream({ systemPrompt: "系统", messages: agentTranscript, tools: REQUEST_TOOLS });
    await stream.result();
  }
  // This adapter has no window: nothing may be cut (a budget of 0 would cut the path and look like a missing suffix).
  const huge = [user("0000000a", null, "长".repeat(1_000_000)), answer("0000000b", "0000000a", "旧回答"), queued[0]];
  const unbounded = buildContext(huge as SessionEntry[], requestBudget({ messages: [], tools: REQUEST_TOOLS }));
  assert.equal(
    unbounded.dropped.length,
    0,
    "没有给窗口（options.window）时什么都不裁，再长的活动路径也整条进请求：contextWindow 是 window?.tokens ?? NO_WINDOW，不是 0",
  );
  assert.deepEqual(sent(inner, 0), ["旧问题", [text("旧回答")], "新问题"], "请求 = 已持久化的路径 + 排队中的后缀");
  assert.deepEqual(sent(inner, 1), sent(inner, 0), "同样的状态再请求一次，后缀不会被接两次");
  assert.equal(persisted.length, 2, "后缀只属于这次请求：已持久化的数组没有变长");
  assert.equal(queued.length, 1, "排队的数组没有变");
  const copied = activePath(source(persisted, queued));
  const first = copied[0] as Extract<SessionEntry, { type: "message" }>;
  (first.message as UserMessage).content = "被这次请求改掉了";
  assert.equal(
    (persisted[0] as Extract<SessionEntry, { type: "message" }>).message.content,
    "旧问题",
    "活动路径是深拷贝：改它的条目碰不到 Runtime 自己的",
  );
  const suffix = copied.at(-1) as Extract<SessionEntry, { type: "message" }>;
  (suffix.message as UserMessage).content = "被这次请求改掉了";
  assert.equal(
    (queued[0] as Extract<SessionEntry, { type: "message" }>).message.content,
    "新问题",
    "拼出来的是新数组的深拷贝，排队中的后缀也一样：不能把 Runtime 自己的条目对象交出去（structuredClone 整个拼好的数组）",
  );
});

test("上下文适配器：预算减去系统提示、工具与预留，只保留完整的近期交互", { timeout: TEST_TIMEOUT_MS }, async () => {
  const path = [
    user("0000000a", null, "第一段：".repeat(30)),
    answer("0000000b", "0000000a", "第一段的回答"),
    user("0000000c", "0000000b", "第二段：".repeat(30)),
    answer("0000000d", "0000000c", "第二段的回答"),
    user("0000000e", "0000000d", "第三段"),
    answer("0000000f", "0000000e", "第三段的回答"),
  ];
  const tokens = (entries: SessionEntry[]) =>
    entries.reduce((sum, entry) => sum + (entry.type === "message" ? estimateTokens(entry.message) : 0), 0);
  const base = { systemPrompt: "系统", messages: [], tools: REQUEST_TOOLS };
  const fixed = requestBudget(base).systemPromptTokens;
  // The smallest window whose history budget holds all three interactions.
  let window = 1;
  while (window - Math.ceil(window * 0.05) - fixed - 10 < tokens(path)) window += 1;
  const firstKept = async (request: typeof base, reserve: number) => {
    const inner = scripted(says("好"));
    await contextAdapter(inner, source(path, []), { window: { tokens: window, reserve } })
      .stream(request)
      .result();
    return inner.requests[0]?.messages.map((message) => message.content)[0];
  };
  assert.equal(
    await firstKept(base, 10),
    path[0]?.type === "message" ? path[0].message.content : "",
    "都放得下：三段交互全保留",
  );
  const second = "第二段：".repeat(30);
  assert.equal(
    await firstKept({ ...base, systemPrompt: `系统${"长".repeat(12)}` }, 10),
    second,
    "系统提示变长：最老的一段整段去掉",
  );
  const wideTool = { ...REQUEST_TOOLS[0], description: "看".repeat(48) } as (typeof REQUEST_TOOLS)[number];
  assert.equal(await firstKept({ ...base, tools: [wideTool] }, 10), second, "工具的 schema 也算固定成本");
  assert.equal(await firstKept(base, 20), second, "回答的预留也从窗口里扣掉");
  assert.equal(await firstKept(base, window), "第三段", "只剩最新的一段时它仍整段保留，从它的用户消息开始");

  // Older interactions do not fit and a compact hook is given: it gets the cut, and the entry it appends is in this very request.
  const grown: SessionEntry[] = [...path];
  const withHook: CompactionTarget = {
    persisted: () => grown,
    queued: () => [],
    path: () => structuredClone(grown),
    appendEntry: (entry) => void grown.push(entry),
    newId: () => "0000ffff",
  };
  const dropped: unknown[] = [];
  const inner = scripted(says("好"));
  const compact: CompactHook = async (cut, budget, target) => {
    dropped.push(...cut.dropped.map((message) => message.content));
    target.appendEntry({
      type: "compaction",
      id: target.newId(),
      parentId: "0000000f",
      timestamp: AT,
      summary: "较早的：第一段",
      firstKeptEntryId: cut.firstKeptEntryId ?? "",
      tokensBefore: 1,
    });
    return buildContext(target.path(), budget);
  };
  await contextAdapter(inner, withHook, { window: { tokens: window, reserve: 20 }, compact })
    .stream(base)
    .result();
  assert.deepEqual(dropped, ["第一段：".repeat(30), [text("第一段的回答")]], "压缩钩子拿到的是整段被裁掉的最老交互");
  assert.match(
    JSON.stringify(inner.requests[0]?.messages[0]?.content),
    /较早的：第一段/,
    "钩子追加的摘要就在这一次请求的开头",
  );
});

test("上下文适配器：系统提示、工具与信号原样传给内层模型，内层模型看不到也改不了 Runtime 的数组", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const persisted = [user("0000000a", null, "旧问题"), answer("0000000b", "0000000a", "旧回答")];
  const queued = [user("0000000c", "0000000b", "新问题")];
  const before = structuredClone([...persisted, ...queued]);
  const seen: unknown[] = [];
  const vandal: Model = {
    stream(request, options) {
      seen.push(request.tools, options?.signal, request.systemPrompt);
      for (const message of request.messages) if (message.role === "user") message.content = "改掉了";
      request.messages.push({ role: "user", content: "塞进去的", timestamp: 9 });
      return scripted(says("好")).stream(request, options);
    },
  };
  const controller = new AbortController();
  const adapter = contextAdapter(vandal, source(persisted, queued));
  await adapter
    .stream({ systemPrompt: "系统", messages: [], tools: REQUEST_TOOLS }, { signal: controller.signal })
    .result();
  assert.deepEqual(seen[0], REQUEST_TOOLS, "工具定义原样传过去");
  // assert.ok, not assert.equal: Node 20's strictEqual drops the message for same-shaped objects.
  assert.ok(
    seen[0] === REQUEST_TOOLS,
    "工具原样传过去：内层模型拿到的就是 request.tools 这个数组，不是副本（不 structuredClone）",
  );
  assert.equal(seen[1], controller.signal, "信号是同一个对象，中止能传到内层");
  assert.equal(seen[2], "系统", "系统提示原样传过去：innerStream 发出的请求带着 request.systemPrompt");
  assert.deepEqual([...persisted, ...queued], before, "内层模型改的是副本：Runtime 的条目一个字都没变");
  const again = scripted(says("好"));
  await contextAdapter(again, source(persisted, queued)).stream({ messages: [], tools: REQUEST_TOOLS }).result();
  assert.deepEqual(
    sent(again, 0),
    ["旧问题", [text("旧回答")], "新问题"],
    "下一次请求看不到上一次内层模型塞进去的东西",
  );
  assert.ok(
    !Object.hasOwn(again.requests[0] ?? {}, "systemPrompt"),
    "request 有 systemPrompt 时才带上它：没有系统提示的请求里没有 systemPrompt 这个键（不是值为 undefined 的键）",
  );
});

// ---- Lab 13.3 · 持久化与生命周期 ----

test("持久化与生命周期：接上资源与扩展；提示在它的条目逐条落盘之后才 resolve", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // A recordUpTo whose loop never advances `recorded` would record the same message forever; the
  // bounded transcript stops it at TRANSCRIPT_READS reads, and this line names the rule.
  const runawaysBefore = runaways();
  const quick = openRuntime({
    session: new InMemorySessionStore(newHeader("/w")),
    model: scripted(says("好")),
    parts: partsOf(),
  });
  await quick.prompt("一").catch(() => undefined);
  assert.equal(
    runaways(),
    runawaysBefore,
    `recordUpTo 记到 transcript 的末尾就停：recordMessage 每记下一条消息 recorded 加一；recorded 不动，同一条消息被一遍遍记下，循环永远不结束（transcript 的消息被读了 ${TRANSCRIPT_READS} 次还没停）`,
  );
  await withDir(async (dir) => {
    const extension = path.join(dir, "shout.mjs");
    await writeFile(
      extension,
      [
        "export default (api) => {",
        '  api.registerTool({ name: "shout", description: "Shouts.", parameters: { type: "object" },',
        '    execute: async () => ({ content: [{ type: "text", text: "喊出来了" }] }) });',
        '  api.before((call) => (call.name === "look" ? { allow: false, reason: "扩展不让看" } : undefined));',
        "};",
        "",
      ].join("\n"),
    );
    const parts = await wireRuntime({
      tools: lookTools(),
      systemPrompt: (names) => `工具：${names.join(",")}`,
      resources: { contextFiles: [{ path: "/w/AGENTS.md", content: "用中文回答。" }], skills: [] },
      extensions: {
        files: [{ kind: "extension", name: "shout.mjs", root: { kind: "workspace", dir }, path: extension }],
        trusted: () => true,
      },
    });
    const real = await sessionFile(dir);
    const hold = held(real);
    const model = scripted(asks("c1", "shout", {}), asks("c2", "look", { path: "a.txt" }), says("完成"));
    const runtime = openRuntime({ session: hold.store, model, parts });
    let resolved = false;
    const done = runtime.prompt("开始").then((result) => {
      resolved = true;
      return result;
    });
    // user, call shout, its result, call look, its (denied) result, the answer: six entries, one at a time.
    for (let written = 0; written < 6; written += 1) {
      await arrivalWhile(
        hold,
        done,
        `提示结束时只写了 ${written} 个条目，应为 6 个：transcript 里每条消息恰好记录一次（recorded 数的是已经成为条目的消息，recordUpTo 从 transcript.slice(recorded) 接着记）`,
      );
      await settle();
      assert.ok(hold.maxInFlight() <= 1, "条目一次写一个：前一个写完（接在 writes 链后面）才写下一个");
      assert.equal(resolved, false, `第 ${written + 1} 个条目还没落盘，提示不能 resolve`);
      const persistedNow = runtime.compaction.persisted().length;
      assert.ok(
        persistedNow >= written,
        `写完的条目要移进 persisted：写入成功后 queued.shift() 出来的条目 push 进 persisted（已经落盘 ${written} 个，persisted 里只有 ${persistedNow} 个）`,
      );
      assert.equal(
        persistedNow,
        written,
        `写完才从 queued 移到 persisted：persisted 只有已经落盘的 ${written} 个条目，正在等写入的第 ${written + 1} 个还在 queued 里`,
      );
      if (written === 0) {
        // Raced against one turn of the event loop: a Runtime that does not refuse would start a prompt that waits on the held write.
        const again = await Promise.race([
          runtime.prompt("又一个").then(
            () => "resolved",
            (error: unknown) => error,
          ),
          settle().then(() => "还在运行"),
        ]);
        assert.ok(
          again instanceof RuntimeError && /还没有结束/.test(again.message),
          `一个提示还在运行时再提示：立刻一行拒绝（refusal() 看 running；插话用 steer()）；实际：${String(again)}`,
        );
      }
      hold.release();
    }
    await noArrivalBefore(
      hold,
      done,
      "6 个条目之后又来了一个：transcript 里每条消息恰好记录一次（recorded 数的是已经成为条目的消息，记过的不再记）",
    );
    const result = await done;
    assert.equal(result.reason, "stop", "被拒绝的调用配成错误结果，这一轮照常结束");
    assert.equal(hold.maxInFlight(), 1, "条目一次写一个");
    assert.equal(real.entries().length, 6, "resolve 时每个条目都已写进文件");
    assert.deepEqual(
      model.requests[2]?.messages.map((message) => message.role),
      ["user", "assistant", "toolResult", "assistant", "toolResult"],
      "第三次请求 = 已写完的 + 排队中的，按顺序，每条一次",
    );
    const request = model.requests[0];
    assert.match(
      request?.systemPrompt ?? "",
      /^工具：look,shout\n\n<context_file path="\/w\/AGENTS\.md">/,
      "系统提示 = 基础（含扩展的工具）+ 资源上下文",
    );
    assert.deepEqual(
      request?.tools.map((tool) => tool.name),
      ["look", "shout"],
      "扩展注册的工具在请求里",
    );
    const results = result.messages.filter((message) => message.role === "toolResult");
    assert.deepEqual(
      results.map((message) => message.content),
      [[text("喊出来了")], [text('Call to tool "look" was denied: 扩展不让看')]],
      "扩展的工具能运行，它的 before 钩子拒绝了 look",
    );
  });
});

test("持久化与生命周期：系统提示只在变化时打补丁，打过补丁的提示之后基础提示恢复，已持久化的前缀从不改写", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir, [
      user("0000000a", null, "旧问题"),
      answer("0000000b", "0000000a", "旧回答"),
    ]);
    const before = await readFile(session.file, "utf8");
    const model = scripted(says("一"), says("二"), says("三"));
    // After its three turns the model breaks (stream() throws), so the fourth prompt itself rejects.
    const breaking: Model = {
      stream(request, options) {
        if (model.requests.length === 3) throw new Error("模型坏了");
        return model.stream(request, options);
      },
    };
    const runtime = openRuntime({
      session,
      leaf: "0000000b",
      model: breaking,
      parts: partsOf(lookTools(), "基础提示"),
    });
    const events: string[] = [];
    runtime.subscribe((event: RuntimeEvent) => {
      if (event.type === "system_prompt") events.push(event.systemPrompt);
    });
    await runtime.prompt("一", { systemPrompt: "基础提示" });
    assert.deepEqual(events, [], "补丁与当前的一样：不算变化，没有事件");
    await runtime.prompt("二", { systemPrompt: "这一次的提示" });
    assert.deepEqual(events, ["这一次的提示", "基础提示"], "打补丁时一个事件，提示结束恢复基础提示时一个事件");
    await runtime.prompt("三");
    assert.deepEqual(
      model.requests.map((request) => request.systemPrompt),
      ["基础提示", "这一次的提示", "基础提示"],
      "补丁只管它那一次提示",
    );
    assert.equal(runtime.systemPrompt(), "基础提示", "提示结束后生效的是基础提示");
    const after = await readFile(session.file, "utf8");
    assert.ok(after.startsWith(before), "恢复的条目一个字节都没被改写");
    assert.doesNotMatch(after, /这一次的提示|基础提示/, "系统提示不写进会话条目");
    await assert.rejects(runtime.prompt("四", { systemPrompt: "失败的这一次" }), "模型抛出：这次提示拒绝");
    assert.equal(
      runtime.systemPrompt(),
      "基础提示",
      "提示结束（成也好败也好）基础提示恢复：engine.prompt() 拒绝时 finally 照样换回基础提示",
    );
  });
});

test("持久化与生命周期：恢复的历史之后只追加新后缀；落盘失败毒化 Runtime，之后的提示一行拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const file = await sessionFile(dir, [user("0000000a", null, "旧问题"), answer("0000000b", "0000000a", "旧回答")]);
    const { store: session, asked } = counting(file);
    // The tool steers a line into the running prompt: the Agent works on a resumed session too.
    let steer: (line: string) => boolean = () => false;
    const tools = new ToolRegistry();
    tools.register({
      name: "look",
      description: "Looks at a path.",
      parameters: { type: "object" },
      execute: async () => {
        steer("顺便也看看 b");
        return { content: [text("看到了")] };
      },
    });
    const badRequest = { ...assistantMessage([], "error"), errorMessage: "400 bad request" };
    const model = scripted(asks("c1", "look", {}), says("新回答"), badRequest, says("不会用到"));
    const runtime = openRuntime({ session, leaf: "0000000b", model, parts: partsOf(tools, "基础提示") });
    steer = (line) => runtime.steer(line);
    const first = await runtime.prompt("新问题");
    const entries = file.entries();
    assert.deepEqual(entries.map((entry) => entry.id).slice(0, 2), ["0000000a", "0000000b"], "恢复的条目原样在前");
    assert.deepEqual(
      entries.slice(2).map((entry) => (entry.type === "message" ? entry.message.role : entry.type)),
      ["user", "assistant", "toolResult", "user", "assistant"],
      "只追加了这次提示的条目（提示、调用、结果、steer 进来的行、回答），恢复的历史没有再写一遍",
    );
    assert.equal(entries[2]?.parentId, "0000000b", "新后缀接在选中的叶子下面");
    assert.deepEqual(
      entries.slice(3).map((entry) => entry.parentId),
      entries.slice(2, -1).map((entry) => entry.id),
      "新后缀是一条链：每个条目接在前一个下面（append 之后它就是 leaf）",
    );
    assert.equal(
      runtime.leafId(),
      entries.at(-1)?.id,
      "leafId() 是最后追加的条目：新后缀的链已经对了（append 换了 leaf），所以看控制面：open.ts（Lab 13.1 ②）的 leafId 取 core 上的同名成员 core.leafId，不是打开时的 options.leaf",
    );
    const asked0 = first.messages.find((message) => message.role === "user") as UserMessage;
    asked0.content = "调用方改掉了";
    assert.ok(
      runtime.messages().every((message) => message.content !== "调用方改掉了"),
      "条目存的是消息的 JSON 副本：调用方改结果里的消息，Runtime 的历史不变",
    );
    assert.deepEqual(sent(model, 0), ["旧问题", [text("旧回答")], "新问题"], "恢复的历史经适配器进入请求");

    // An answer that fails (not retried) stays in the transcript: it is recorded when the prompt ends.
    const failing = await runtime.prompt("再问一次");
    assert.equal(failing.reason, "error", "模型的回答以错误结束");
    assert.deepEqual(
      sent(model, 2).slice(2),
      [
        "新问题",
        [text("我先看一下。"), { type: "toolCall", id: "c1", name: "look", arguments: {} }],
        [text("看到了")],
        "顺便也看看 b",
        [text("新回答")],
        "再问一次",
      ],
      "下一次请求 = 写完的路径，每条一次，没有重复",
    );
    const last = file.entries().at(-1);
    assert.ok(
      last?.type === "message" && last.message.role === "assistant" && last.message.stopReason === "error",
      "留在对话里的失败回答在提示结束时记下",
    );

    // The disk goes away: the session file becomes a folder, so the next append fails (EISDIR).
    await rm(file.file);
    await mkdir(file.file);
    const before = asked.length;
    const failed = await runtime.prompt("这次写不进去", { systemPrompt: "补丁" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failed instanceof RuntimeError, "条目没写进磁盘的提示不能 resolve：它以 RuntimeError 拒绝");
    assert.ok(isOneLine(failed.message) && /会话写入失败/.test(failed.message), failed.message);
    assert.ok(
      !failed.message.startsWith("会话写入失败（会话写入失败") &&
        failed.message.includes(`条目 ${asked[before]?.id} 起`),
      `poison 只在第一次写入失败时设下：之后排着的条目看到 poison 就跳过（不写，也不换掉 poison），failure() 说出第一个没写进去的条目 ${asked[before]?.id}；实际：${failed.message}`,
    );
    assert.equal(runtime.failure(), failed.message, "failure() 说出是哪一次写入失败");
    assert.equal(asked.length, before + 1, "写失败的条目之后的条目不再交给存储：文件里不会有洞");
    assert.equal(runtime.systemPrompt(), "基础提示", "失败的提示结束时同样恢复基础提示");
    const requests = model.requests.length;
    const refused = await runtime.prompt("再试一次").then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.equal(refused, failed, "被毒化之后每个提示都以同一个错误对象拒绝（poison 本身，不是同样文字的新错误）");
    assert.equal(model.requests.length, requests, "被拒绝的提示根本不会请求模型");
    await assert.rejects(runtime.flush(), (error: unknown) => error === failed, "flush() 不把没写完的说成已保存");
    await assert.rejects(runtime.dispose(), (error: unknown) => error === failed, "dispose() 也一样");
    await assert.rejects(
      runtime.dispose(),
      (error: unknown) => error === failed,
      "dispose() 可以调用多次：第二次调用做的和第一次一样（等提示与磁盘，poison 有值就抛出它），不是 closed 了就直接返回",
    );
    const afterDispose = await runtime.prompt("关了之后").then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(
      afterDispose === failed,
      `refusal() 先 poison 再 closed：毒化之后又 dispose() 的 Runtime 仍以 poison 本身拒绝（同一个错误对象），不是“已经 dispose()”；实际：${String(afterDispose)}`,
    );
    assert.equal(asked.length, before + 1, "毒化之后什么都不再写");

    // A write that fails outside any prompt (a compaction entry, say): nobody awaits the chain yet.
    // For these few turns the test alone listens for unhandled rejections, so it can name the rule.
    const unhandled: unknown[] = [];
    const keep = (reason: unknown) => void unhandled.push(reason);
    const runner = process.listeners("unhandledRejection");
    process.removeAllListeners("unhandledRejection");
    process.on("unhandledRejection", keep);
    try {
      const multiLine = new Error("EIO: 磁盘坏了\n    at 存储的第二行");
      const broken: SessionStore = { ...session, append: async () => Promise.reject(multiLine) };
      const lone = openRuntime({ session: broken, leaf: "0000000b", model: scripted(), parts: partsOf() });
      const entry = messageEntry(
        { role: "user", content: "写不进去", timestamp: 1 },
        "0000000b",
        lone.compaction.newId(),
      );
      lone.compaction.appendEntry(entry);
      await settle();
      await settle();
      assert.deepEqual(
        unhandled.map((reason) => String((reason as Error)?.message ?? reason)),
        [],
        "链上的 Promise 自己不能 reject：写入失败只记下 poison，不让 writes 链拒绝（没人等它时就是 unhandled rejection）",
      );
      await assert.rejects(lone.flush(), (error: unknown) => error instanceof RuntimeError, "flush() 报出这次写入失败");
      const poisoned = await lone.flush().then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(
        poisoned instanceof RuntimeError &&
          isOneLine(poisoned.message) &&
          poisoned.message.startsWith("会话写入失败（EIO: 磁盘坏了）"),
        `写入失败是一行 RuntimeError：括号里只放存储错误消息（error.message）的第一行，多行的错误也只给一行（实际：${JSON.stringify(String((poisoned as Error)?.message))}）`,
      );
      assert.equal((poisoned as Error).cause, multiLine, "选项 { cause: error } 挂的是存储抛出的原错误本身");
      // flush() called before the write has run: the failure happens while it waits.
      const waiter = openRuntime({ session: broken, leaf: "0000000b", model: scripted(), parts: partsOf() });
      waiter.compaction.appendEntry(
        messageEntry(structuredClone(entry.message), "0000000b", waiter.compaction.newId()),
      );
      const waited = await waiter.flush().then(
        () => "resolved",
        (error: unknown) => error,
      );
      assert.ok(
        waited instanceof RuntimeError,
        "flush() 先 await writes，之后 poison 有值就抛出它：它等着的写入失败了，flush() 也拒绝（不在等之前就看 poison）",
      );
    } finally {
      process.off("unhandledRejection", keep);
      for (const listener of runner) process.on("unhandledRejection", listener);
    }
  });
  await withDir(async (dir) => {
    // The model throws, so engine.prompt() rejects after the user message was queued for the disk.
    const broken: Model = {
      stream() {
        throw new Error("模型坏了");
      },
    };
    const runtime = openRuntime({ session: await sessionFile(dir), model: broken, parts: partsOf() });
    await assert.rejects(runtime.prompt("写下我"), "模型抛出：这次提示拒绝");
    assert.deepEqual(
      runtime.compaction.queued().map((entry) => entry.type),
      [],
      "无论成败（finally）都 await writes：engine.prompt() 拒绝时，提示也等它的条目（这里是用户消息）落盘才拒绝",
    );
  });
  await withDir(async (dir) => {
    // An answer with a field set to undefined: the entry is what the file keeps, where that field is absent.
    const model = scripted({ ...says("好"), errorMessage: undefined });
    const runtime = openRuntime({ session: await sessionFile(dir), model, parts: partsOf() });
    const rule =
      "条目存的是消息的 JSON 副本（JSON.parse(JSON.stringify(message))，不是 structuredClone）：就是文件里会留下的样子，值为 undefined 的字段不存在";
    await runtime.prompt("你好").catch((error: unknown) => assert.fail(`${rule}；实际：${String(error)}`));
    const recorded = runtime.compaction.persisted().at(-1);
    assert.ok(recorded?.type === "message" && !("errorMessage" in recorded.message), rule);
  });
});

test("持久化与生命周期：flush() 只等当前队列写完；dispose() 等条目落盘，然后永久关闭提示", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const real = await sessionFile(dir);
    const hold = held(real);
    const runtime = openRuntime({ session: hold.store, model: scripted(), parts: partsOf() });
    const { compaction } = runtime;
    const first = messageEntry({ role: "user", content: "一", timestamp: 1 }, null, compaction.newId());
    compaction.appendEntry(first);
    const flushed = runtime.flush();
    const second = messageEntry({ role: "user", content: "二", timestamp: 2 }, first.id, compaction.newId());
    compaction.appendEntry(second);
    let flushDone = false;
    void flushed.then(() => {
      flushDone = true;
    });
    await hold.arrival();
    await settle();
    assert.equal(flushDone, false, "排着的条目还没写完，flush() 不能 resolve");
    hold.release();
    while (compaction.queued().length > 1) await settle();
    const flushOutcome = await Promise.race([
      flushed.then(
        () => "resolved",
        (error: unknown) => error,
      ),
      settle().then(() => "还在等"),
    ]);
    assert.equal(
      flushOutcome,
      "resolved",
      "flush() 只等调用那一刻排着的写入（同步读 writes，在任何 await 之前）：它们写完就 resolve，不等之后排进来的",
    );
    assert.deepEqual(
      real.entries().map((entry) => entry.id),
      [first.id],
      "flush() 在它调用时排着的条目写完就 resolve，不等之后的",
    );

    let disposed = false;
    const closing = runtime.dispose().then(() => {
      disposed = true;
    });
    // Raced against one turn of the event loop: a broken dispose() would start a prompt that waits on the held write.
    const early = await Promise.race([
      runtime.prompt("关闭中").then(
        () => "resolved",
        (error: unknown) => error,
      ),
      settle().then(() => "还在运行"),
    ]);
    assert.ok(early instanceof RuntimeError, "dispose() 一开始就不再接受提示");
    await hold.arrival();
    await settle();
    assert.equal(disposed, false, "还有条目没落盘，dispose() 不能 resolve");
    hold.release();
    await closing;
    assert.deepEqual(
      real.entries().map((entry) => entry.id),
      [first.id, second.id],
      "dispose() resolve 时磁盘上有每一个条目",
    );
    const late = await runtime.prompt("之后").then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(
      late instanceof RuntimeError && isOneLine(late.message) && /dispose/.test(late.message),
      "dispose() 之后的提示一行拒绝",
    );
    await runtime.dispose();
  });
  await withDir(async (dir) => {
    // dispose() while a prompt runs: its entries are not queued yet when dispose() is called.
    const hold = held(await sessionFile(dir));
    const runtime = openRuntime({ session: hold.store, model: scripted(says("好")), parts: partsOf() });
    const order: string[] = [];
    const running = runtime.prompt("最后一个").then(() => void order.push("prompt"));
    const twoEntries = (written: number) =>
      `提示结束时只写了 ${written} 个条目，应为 2 个（用户消息与回答）：transcript 里每条消息恰好记录一次`;
    await arrivalWhile(hold, running, twoEntries(0));
    const closing = runtime.dispose().then(() => void order.push("dispose"));
    let againDone = false;
    const again = runtime.dispose().then(() => {
      againDone = true;
    });
    const whileClosing = await runtime.prompt("关闭时").then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(
      whileClosing instanceof RuntimeError && /dispose/.test(whileClosing.message),
      `refusal() 先 closed 再 running：dispose() 之后的提示被告知已经 dispose()，即使上一个提示还在运行（等它结束也不会再接受）；实际：${String(whileClosing)}`,
    );
    await settle();
    assert.equal(
      againDone,
      false,
      "dispose() 可以调用多次：第二次调用也先等正在运行的提示与磁盘才 resolve，不是 closed 了就直接返回",
    );
    for (let written = 0; written < 2; written += 1) {
      if (written > 0) await arrivalWhile(hold, running, twoEntries(written));
      hold.release();
    }
    await noArrivalBefore(hold, running, "2 个条目之后又来了一个：transcript 里每条消息恰好记录一次");
    await Promise.all([running, closing, again]);
    assert.deepEqual(
      order,
      ["prompt", "dispose"],
      "dispose() 等正在运行的提示结束（await running），之后才等磁盘：它 resolve 时那个提示的条目都已落盘",
    );
  });
  await withDir(async (dir) => {
    // flush() while a prompt runs: the prompt waits in its tool, its first two entries are written.
    const hold = held(await sessionFile(dir));
    let started: () => void = () => {};
    const inTool = new Promise<void>((resolve) => {
      started = resolve;
    });
    let letGo: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const tools = new ToolRegistry().register({
      name: "wait",
      description: "Waits until the test lets it go.",
      parameters: { type: "object" },
      execute: async () => {
        started();
        await gate;
        return { content: [text("等到了")] };
      },
    });
    const runtime = openRuntime({
      session: hold.store,
      model: scripted(asks("c1", "wait", {}), says("好")),
      parts: partsOf(tools),
    });
    const running = runtime.prompt("等一下");
    await inTool;
    for (let written = 0; written < 2; written += 1) {
      await arrivalWhile(hold, running, "提示在工具里等着时，用户消息与带调用的回答都该交给存储");
      hold.release();
    }
    while (runtime.compaction.queued().length > 0) await settle();
    const flushed = await Promise.race([
      runtime.flush().then(
        () => "resolved",
        (error: unknown) => error,
      ),
      settle().then(() => "还在等"),
    ]);
    assert.equal(
      flushed,
      "resolved",
      "flush() 只等调用那一刻排着的写入：它们写完就 resolve，不等正在运行的提示（那是 dispose() 的事）",
    );
    letGo();
    for (let written = 2; written < 4; written += 1) {
      await arrivalWhile(hold, running, "工具的结果与最后的回答也交给存储");
      hold.release();
    }
    await running;
  });
  await withDir(async (dir) => {
    // dispose() while a prompt runs that fails for its own reason (the model throws; every write succeeds).
    const broken: Model = {
      stream() {
        throw new Error("模型坏了");
      },
    };
    const runtime = openRuntime({ session: await sessionFile(dir), model: broken, parts: partsOf() });
    const failing = assert.rejects(runtime.prompt("会失败"), "模型抛出：这次提示拒绝");
    const closing = runtime.dispose().then(
      () => "resolved",
      (error: unknown) => error,
    );
    await failing;
    assert.equal(
      await closing,
      "resolved",
      "dispose() 等正在运行的提示结束，但它的失败不在这里报（running?.catch(() => undefined)）：没有写入失败时 dispose() resolve，不以那个提示的错误拒绝",
    );
  });
});

// ---- Lab 13.4 · 三种模式 ----

/** A Runtime on a new session file, with every prompt it gets counted. */
async function countedRuntime(dir: string, model: ScriptedModel) {
  const session = await sessionFile(dir);
  const runtime = openRuntime({ session, model, parts: partsOf() });
  const prompts: string[] = [];
  let subscribed = 0;
  let listening = 0;
  return {
    session,
    prompts,
    subscribed: () => subscribed,
    /** Listeners subscribed and not unsubscribed yet. */
    listening: () => listening,
    flush: () => runtime.flush(),
    dispose: () => runtime.dispose(),
    modeRuntime: {
      prompt: (input: string | UserMessage, options?: { systemPrompt?: string }) => {
        prompts.push(typeof input === "string" ? input : JSON.stringify(input.content));
        return runtime.prompt(input, options);
      },
      subscribe: (listener: (event: RuntimeEvent) => void) => {
        subscribed += 1;
        listening += 1;
        const unsubscribe = runtime.subscribe(listener);
        let done = false;
        return () => {
          if (!done) listening -= 1;
          done = true;
          unsubscribe();
        };
      },
    },
  };
}

function output() {
  const chunks: string[] = [];
  return { chunks, write: (chunk: string) => void chunks.push(chunk) };
}

async function* lines(...typed: string[]): AsyncIterable<string> {
  for (const line of typed) yield line;
}

test("三种模式：交互模式与 print 模式对每个用户输入恰好调用一次 Runtime.prompt，并写出最终文本", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const printed = await countedRuntime(dir, scripted(asks("c1", "look", { path: "a" }), says("答一"), says("答二")));
    const out = output();
    const last = await printMode(printed.modeRuntime, { output: out, prompts: ["一", "二"] });
    assert.deepEqual(printed.prompts, ["一", "二"], "print：每个输入一次 prompt");
    assert.deepEqual(out.chunks, ["答一\n", "答二\n"], "print：只写每个提示的最终文本");
    assert.equal(last?.reason, "stop", "print 返回最后一个提示的结果");
  });
  await withDir(async (dir) => {
    const typed = await countedRuntime(dir, scripted(says("答一"), says("答二")));
    const out = output();
    await interactiveMode(typed.modeRuntime, { output: out, input: lines("一", "   ", "  二  ") });
    assert.deepEqual(typed.prompts, ["一", "二"], "交互：每个非空行一次 prompt，空行不算输入");
    assert.deepEqual(out.chunks, ["答一\n", "答二\n"], "交互：每行之后写出最终文本");
    const none = await interactiveMode(typed.modeRuntime, { output: out }).then(
      (result) => result ?? "没有结果",
      (error: unknown) => `拒绝：${String(error)}`,
    );
    assert.equal(none, "没有结果", "交互：没有给 io.input 就是没有输入（io.input ?? []），正常结束、不提示，也不抛错");
  });
});

test("三种模式：JSON 模式只改变呈现，每行一个事件，提示与会话都和 print 模式一样", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const turns = () => scripted(asks("c1", "look", { path: "a" }), says("看完了"), says("又看了一遍"));
  const shape = (entries: SessionEntry[]) =>
    entries.map((entry) => (entry.type === "message" ? [entry.message.role, entry.message.content] : entry.type));
  await withDir(async (dir) => {
    const asText = await countedRuntime(path.join(dir), turns());
    await runMode("print", asText.modeRuntime, { output: output(), prompts: ["看看 a", "再看一遍"] });
    await asText.flush();
    await mkdir(path.join(dir, "json"));
    const asJson = await countedRuntime(path.join(dir, "json"), turns());
    const out = output();
    await runMode("json", asJson.modeRuntime, { output: out, prompts: ["看看 a", "再看一遍"] });
    await asJson.flush();
    assert.deepEqual(asJson.prompts, asText.prompts, "同样的输入，同样的 prompt 调用");
    assert.equal(
      asJson.subscribed(),
      1,
      "JSON 模式在所有提示之前只订阅一个监听器：两个提示也只 subscribe 一次，不是每个提示订阅、取消一次",
    );
    assert.deepEqual(
      [asJson.subscribed(), asJson.listening()],
      [1, 0],
      "JSON 模式订阅一次，结束时（finally）取消订阅：之后的事件不再写进它的输出",
    );
    assert.deepEqual(shape(asJson.session.entries()), shape(asText.session.entries()), "会话里写下的东西一样");
    const events = out.chunks.map((chunk) => {
      assert.ok(chunk.endsWith("\n") && !chunk.slice(0, -1).includes("\n"), "每个事件一行");
      try {
        return JSON.parse(chunk) as RuntimeEvent;
      } catch {
        return assert.fail(
          `JSON 模式每行一个事件，最终文本在事件里，不另外写（不写 print 那样的最终文字行）；这一行不是 JSON：${JSON.stringify(chunk.slice(0, 60))}`,
        );
      }
    });
    assert.equal(events[0]?.type, "agent_start", "第一行是 agent_start");
    assert.equal(events.at(-1)?.type, "agent_end", "最后一行是 agent_end");
    assert.ok(
      events.some((event) => event.type === "tool_end"),
      "工具事件也在",
    );
    const answers = events.filter((event) => event.type === "assistant_message");
    assert.deepEqual(
      answers.at(-1)?.type === "assistant_message" ? answers.at(-1)?.message.content : undefined,
      [text("又看了一遍")],
      "最终文本在事件里，不另外写",
    );
  });
});

test("三种模式：未知的模式在任何事情运行之前失败，输出的 I/O 错误原样传出", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDir(async (dir) => {
    const counted = await countedRuntime(dir, scripted(says("一"), says("二"), says("三")));
    const out = output();
    await assert.rejects(
      runMode("yaml", counted.modeRuntime, { output: out, prompts: ["一"] }),
      (error: unknown) =>
        error instanceof RuntimeError &&
        isOneLine(error.message) &&
        /yaml/.test(error.message) &&
        /print/.test(error.message),
      "未知模式：一行 RuntimeError，说出可用的模式",
    );
    assert.deepEqual(
      [counted.prompts, counted.subscribed(), out.chunks],
      [[], 0, []],
      "未知模式：没有 prompt、没有订阅、什么都没写",
    );
    const inherited = await Promise.resolve()
      .then(() => runMode("toString", counted.modeRuntime, { output: out, prompts: ["一"] }))
      .then(
        (value: unknown) => `resolved ${String(value)}`,
        (error: unknown) => error,
      );
    assert.ok(
      inherited instanceof RuntimeError && /toString/.test(inherited.message),
      `未知的模式：原型上的名字（toString）也不是模式，只认 MODES 自己的键（Object.hasOwn，不是 in）；实际：${String(inherited)}`,
    );
    for (const name of ["PRINT", " json"]) {
      const near = await Promise.resolve()
        .then(() => runMode(name, counted.modeRuntime, { output: out, prompts: ["一"] }))
        .then(
          (value: unknown) => `resolved ${String(value)}`,
          (error: unknown) => error,
        );
      assert.ok(
        near instanceof RuntimeError,
        `未知的模式：只认 MODES 自己的键，名字原样比较，不 trim、不改大小写（${JSON.stringify(name)} 不是模式）；实际：${String(near)}`,
      );
    }

    const broken = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    const failing = {
      write: () => {
        throw broken;
      },
    };
    await assert.rejects(
      runMode("print", counted.modeRuntime, { output: failing, prompts: ["一"] }),
      (error: unknown) => error === broken,
      "print：写输出的错误原样传出",
    );
    let attempts = 0;
    const failingOnce = {
      write: () => {
        attempts += 1;
        throw broken;
      },
    };
    const promptedBefore = counted.prompts.length;
    const jsonOutcome = await runMode("json", counted.modeRuntime, { output: failingOnce, prompts: ["二", "三"] }).then(
      () => "resolved",
      (error: unknown) => error,
    );
    assert.deepEqual(
      counted.prompts.slice(promptedBefore),
      ["二"],
      "json：每个 prompt 之后有记下的写错误就原样抛出它：输出坏了，后面的输入（三）不再提示模型",
    );
    assert.notEqual(jsonOutcome, "resolved", "json：监听器里的写错误不被吞掉：runMode 以它拒绝");
    assert.equal(
      jsonOutcome,
      broken,
      `json：写错误原样传出：拒绝的是 write 抛出的那个错误对象本身，不包装成新的错误（实际：${String(jsonOutcome)}）`,
    );
    assert.equal(attempts, 1, "json：只记下第一个写错误，之后不再写：一次写失败之后，后面的事件一个也不写");
    assert.equal(counted.listening(), 0, "json：出错结束时同样（finally）取消订阅");

    // A prompt the Runtime refuses (it is disposed): the mode fails with that refusal, it does not skip the input.
    await counted.dispose();
    for (const mode of ["print", "json"]) {
      const outcome = await runMode(mode, counted.modeRuntime, { output: out, prompts: ["三"] }).then(
        () => "resolved",
        (error: unknown) => error,
      );
      assert.ok(
        outcome instanceof RuntimeError && /dispose/.test(outcome.message),
        `${mode}：prompt 的拒绝不要接住，它原样传出（实际：${String(outcome)}）`,
      );
    }
    const typed = await interactiveMode(counted.modeRuntime, { output: out, input: lines("四") }).then(
      () => "resolved",
      (error: unknown) => error,
    );
    assert.ok(typed instanceof RuntimeError, `交互：prompt 的拒绝同样原样传出（实际：${String(typed)}）`);
  });
});
