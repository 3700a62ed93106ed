import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type Model,
  type ModelStream,
  ScriptedModel,
  type Tool,
  type ToolCall,
  ToolRegistry,
  text,
} from "@pi/core";
import { Agent, type AgentEvent, type AgentOptions } from "../src/agent.js";
import { assertPaired } from "./transcript-pairing.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------
// Helpers: each test reads like the chapter's timelines.
// ---------------------------------------------------------------------------

/** A promise the test opens by hand: no sleeps. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function call(id: string): ToolCall {
  return { type: "toolCall", id, name: "probe", arguments: { note: id } };
}

function useTools(...ids: string[]): AssistantMessage {
  return assistantMessage([text("先运行工具。"), ...ids.map(call)], "toolUse", 2);
}

function answer(words: string): AssistantMessage {
  return assistantMessage([text(words)], "stop", 4);
}

function failure(errorMessage: string): AssistantMessage {
  return { ...assistantMessage([], "error", 3), errorMessage };
}

/**
 * The `probe` tool: each call waits for its own gate when the test holds one for its id, so
 * the test decides when a batch is in flight and in which order its calls finish.
 */
function probeTools() {
  const held = new Map<string, ReturnType<typeof gate>>();
  const started: string[] = [];
  const tool: Tool = {
    name: "probe",
    description: "Echoes its note; the test may hold it.",
    parameters: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
    async execute(args) {
      const note = String(args.note);
      started.push(note);
      await held.get(note)?.opened;
      return { content: [text(`probe saw ${note}`)] };
    },
  };
  const hold = (id: string) => {
    const g = gate();
    held.set(id, g);
    return g.open;
  };
  return { tools: new ToolRegistry().register(tool), hold, started };
}

function makeAgent(turns: AssistantMessage[], options: Partial<AgentOptions> = {}) {
  const model = new ScriptedModel(turns);
  const probe = probeTools();
  const agent = new Agent({ model, tools: probe.tools, ...options });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  return { agent, model, probe, events };
}

/** A message as one line of a timeline: `user(修复它)`, `assistant(toolUse: a,b)`, `toolResult(a)`. */
function line(message: Message): string {
  switch (message.role) {
    case "user":
      return `user(${typeof message.content === "string" ? message.content : message.content.map((b) => b.text).join("")})`;
    case "assistant": {
      const ids = message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
      return `assistant(${message.stopReason}${ids.length > 0 ? `: ${ids.join(",")}` : ""})`;
    }
    case "toolResult":
      return `toolResult(${message.toolCallId})`;
  }
}

function lines(messages: Message[]): string[] {
  return messages.map(line);
}

function requestLines(model: ScriptedModel): string[][] {
  return model.requests.map((request) => lines(request.messages));
}

function eventTypes(events: AgentEvent[], types: AgentEvent["type"][]): string[] {
  return events.flatMap((event) => {
    if (!types.includes(event.type)) return [];
    if (event.type === "queued") return [`queued(${event.kind}: ${line(event.message)})`];
    if (event.type === "turn_end") return [`turn_end(${event.reason})`];
    if (event.type === "agent_end") return [`agent_end(${event.result.reason})`];
    if (event.type === "retry") return [`retry(${event.attempt})`];
    if (event.type === "tool_end") return [`tool_end(${event.result.toolCallId})`];
    return [event.type];
  });
}

/** Lets every queued microtask and promise job run (the tools and the model here never wait on timers). */
async function settle(): Promise<void> {
  for (let round = 0; round < 20; round += 1) await Promise.resolve();
}

// ---------------------------------------------------------------------------
// Lab 9.1 · 状态与订阅
// ---------------------------------------------------------------------------

test("状态与订阅：steer 与 followUp 进入各自的队列，在 state.queued 中按顺序可见，并以 queued 事件通知订阅者", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const { agent, events } = makeAgent([]);
  assert.deepEqual(agent.state.messages, [], "新的 Agent 没有 transcript");
  assert.equal(agent.state.isRunning, false, "新的 Agent 处于空闲");

  agent.steer("只看 src/");
  agent.followUp("然后更新文档");
  agent.steer({ role: "user", content: [text("别动测试")], timestamp: 7 });

  assert.deepEqual(lines(agent.state.queued.steer), ["user(只看 src/)", "user(别动测试)"], "steer 队列按调用顺序");
  assert.deepEqual(lines(agent.state.queued.followUp), ["user(然后更新文档)"], "followUp 队列独立");
  assert.deepEqual(
    eventTypes(events, ["queued"]),
    ["queued(steer: user(只看 src/))", "queued(followUp: user(然后更新文档))", "queued(steer: user(别动测试))"],
    "每次排队发出一个 queued 事件",
  );
  agent.state.queued.steer.length = 0;
  assert.equal(agent.state.queued.steer.length, 2, "state.queued 是副本：改它不会丢掉排队的消息");
  assert.deepEqual(agent.state.messages, [], "排队的消息还不属于 transcript");
});

test("状态与订阅：抛错的订阅者被隔离，其他订阅者照常收到事件；取消订阅立即生效", { timeout: TEST_TIMEOUT_MS }, () => {
  const { agent } = makeAgent([]);
  const seen: string[] = [];
  agent.subscribe(() => {
    throw new Error("broken listener");
  });
  let stopLate: () => void = () => {};
  agent.subscribe((event) => {
    seen.push(`first:${event.type}`);
    stopLate();
  });
  stopLate = agent.subscribe((event) => seen.push(`late:${event.type}`));
  const stopSecond = agent.subscribe((event) => seen.push(`second:${event.type}`));

  assert.doesNotThrow(() => agent.steer("一"), "订阅者抛错不会传给 steer() 的调用者");
  assert.deepEqual(
    seen,
    ["first:queued", "second:queued"],
    "抛错者之后的订阅者仍收到事件；在本次事件中途取消的订阅者不再收到",
  );

  stopSecond();
  agent.followUp("二");
  assert.deepEqual(seen, ["first:queued", "second:queued", "first:queued"], "取消订阅后不再收到任何事件");

  const { agent: other } = makeAgent([]);
  const heard: string[] = [];
  const stopSelf = other.subscribe((event) => {
    heard.push(`self:${event.type}`);
    stopSelf();
  });
  other.subscribe((event) => {
    heard.push(`next:${event.type}`);
    if (heard.length === 2) other.subscribe((later) => heard.push(`added:${later.type}`));
  });
  other.steer("三");
  assert.deepEqual(
    heard,
    ["self:queued", "next:queued"],
    "订阅者在事件中途取消自己，下一个订阅者照常收到这个事件；中途加入的订阅者从下一个事件才开始收到：订阅数组只整体替换，不原地 push/splice",
  );
  other.followUp("四");
  assert.deepEqual(heard.slice(2), ["next:queued", "added:queued"], "中途加入的订阅者收到之后的事件");
});

// ---------------------------------------------------------------------------
// Lab 9.2 · prompt 与运行守卫
// ---------------------------------------------------------------------------

test("运行守卫：prompt 追加 user message 并运行 loop，state.messages 跨 prompt 保留", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, model, events } = makeAgent([useTools("a"), answer("读完了。"), answer("还记得。")]);
  const running: boolean[] = [];
  const atEnd: string[] = [];
  agent.subscribe((event) => {
    if (event.type === "assistant_message") running.push(agent.state.isRunning);
    if (event.type === "agent_end") {
      atEnd.push(`isRunning=${agent.state.isRunning} lastResult=${agent.state.lastResult === event.result}`);
    }
  });

  const first = await agent.prompt("读取 a");
  assert.equal(first.reason, "stop", "第一次 prompt 以 stop 结束");
  assert.equal(first.steps, 2, "两次模型请求");
  assert.deepEqual(
    lines(agent.state.messages),
    ["user(读取 a)", "assistant(toolUse: a)", "toolResult(a)", "assistant(stop)"],
    "transcript 保存这次运行的全部事实",
  );
  assert.deepEqual(agent.state.lastResult, first, "lastResult 是最近一次运行的结果");

  const second = await agent.prompt("你还记得吗？");
  assert.deepEqual(
    requestLines(model)[2],
    ["user(读取 a)", "assistant(toolUse: a)", "toolResult(a)", "assistant(stop)", "user(你还记得吗？)"],
    "第二个 prompt 的请求带着第一次的 transcript",
  );
  assert.deepEqual(second.messages, agent.state.messages, "结果的 messages 就是 state.messages");
  assert.deepEqual(running, [true, true, true], "运行期间 isRunning 为 true");
  assert.equal(agent.state.isRunning, false, "结束后 isRunning 为 false");
  assert.deepEqual(
    atEnd,
    ["isRunning=false lastResult=true", "isRunning=false lastResult=true"],
    "顺序要紧：先清掉 active、记下 lastResult，再发出 agent_end（订阅者收到 agent_end 时 isRunning 已是 false）",
  );
  assert.deepEqual(
    eventTypes(events, ["agent_start", "turn_end", "agent_end"]),
    ["agent_start", "turn_end(stop)", "agent_end(stop)", "agent_start", "turn_end(stop)", "agent_end(stop)"],
    "每个 prompt 一对 agent_start / agent_end",
  );

  const chained = makeAgent([answer("一。"), answer("二。")]);
  let next: Promise<unknown> | undefined;
  const stop = chained.agent.subscribe((event) => {
    if (event.type !== "agent_end") return;
    stop();
    next = chained.agent.prompt("接着问").catch((error: Error) => error.message);
  });
  await chained.agent.prompt("先问");
  assert.ok(next, "agent_end 发出了");
  const chainedResult = await next;
  assert.equal(
    typeof chainedResult === "object" && chainedResult !== null && "reason" in chainedResult
      ? chainedResult.reason
      : chainedResult,
    "stop",
    "在 agent_end 里立刻发起的下一个 prompt 不被拒：发出 agent_end 之前先清掉 active",
  );
});

test("运行守卫：运行中再次 prompt 立即被拒，错误只有一行并提到 steer() 与 followUp()，当前回合不受影响", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, model, probe } = makeAgent([useTools("a"), answer("完成。")]);
  const release = probe.hold("a");
  const run = agent.prompt("读取 a");
  await settle();
  assert.deepEqual(probe.started, ["a"], "第一个回合正在执行工具");

  await assert.rejects(
    agent.prompt("再来一个"),
    (error: Error) => {
      assert.doesNotMatch(error.message, /\n/, "错误只有一行");
      assert.match(error.message, /steer\(\)/, "错误提到 steer()");
      assert.match(error.message, /followUp\(\)/, "错误提到 followUp()");
      return true;
    },
    "运行中的 prompt 被拒绝",
  );
  assert.deepEqual(
    lines(agent.state.messages),
    ["user(读取 a)"],
    "被拒的 prompt 不进入 transcript：运行守卫在追加 user message 之前拒绝",
  );
  release();
  const result = await run;
  assert.equal(result.reason, "stop", "当前回合照常结束");
  assert.equal(model.requests.length, 2, "被拒的 prompt 没有发起请求");
  assert.deepEqual(
    lines(result.messages),
    ["user(读取 a)", "assistant(toolUse: a)", "toolResult(a)", "assistant(stop)"],
    "被拒的 prompt 不进入 transcript",
  );
});

test("运行守卫：订阅者抛错不影响运行；abort() 让工具批次后的回合以 aborted 结束，transcript 仍配对", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, model, probe, events } = makeAgent([useTools("a", "b"), answer("不该出现")]);
  agent.subscribe(() => {
    throw new Error("broken listener");
  });
  const release = probe.hold("a");
  const run = agent.prompt("读取 a 和 b");
  await settle();
  agent.abort();
  release();
  const result = await run;

  assert.equal(result.reason, "aborted", "abort() 后以 aborted 结束");
  assert.equal(model.requests.length, 1, "不再发起下一次请求");
  assert.deepEqual(
    lines(agent.state.messages),
    ["user(读取 a 和 b)", "assistant(toolUse: a,b)", "toolResult(a)", "toolResult(b)"],
    "批次的结果都已写入",
  );
  assertPaired(agent.state.messages, "每个调用都有配对结果");
  assert.deepEqual(eventTypes(events, ["agent_end"]), ["agent_end(aborted)"], "抛错的订阅者不影响 agent_end");
  agent.abort();
  assert.equal(agent.state.isRunning, false, "空闲时 abort() 什么也不做");
});

// ---------------------------------------------------------------------------
// Lab 9.3 · steer 与 followUp 的投递
// ---------------------------------------------------------------------------

test("转向与追加：steer 在当前批次的结果之后、下一次请求之前进入 transcript，不在批次中间，恰好一次且按顺序", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // Two spare answers: a takeSteering that hands over one steer at a time makes more requests.
  const spare = [answer("（多余的回答）"), answer("（多余的回答）")];
  const { agent, model, probe } = makeAgent([useTools("slow", "fast"), answer("按新要求完成。"), ...spare]);
  const releaseSlow = probe.hold("slow");
  agent.subscribe((event) => {
    // Typed while the model is still answering with the two calls.
    if (event.type === "model_event" && event.event.type === "start" && model.requests.length === 1) {
      agent.steer("先看 README");
    }
    // Typed while the batch is half done: fast has finished, slow still runs.
    if (event.type === "tool_end" && event.result.toolCallId === "fast") {
      agent.steer("只看 src/");
      agent.steer("别动测试");
      releaseSlow();
    }
  });
  const result = await agent.prompt("整理代码");

  assert.deepEqual(
    requestLines(model)[1],
    [
      "user(整理代码)",
      "assistant(toolUse: slow,fast)",
      "toolResult(slow)",
      "toolResult(fast)",
      "user(先看 README)",
      "user(只看 src/)",
      "user(别动测试)",
    ],
    "模型回答期间与批次执行期间排队的 steer 都在整批结果之后、第二次请求之前，按排队顺序：takeSteering 交出整个 steer 队列",
  );
  assert.equal(model.requests.length, 2, "三条 steer 一起进入第二次请求，没有多余的请求");
  assertPaired(result.messages, "批次中的每个调用仍紧跟着配对结果");
  assert.equal(lines(result.messages).filter((entry) => entry === "user(只看 src/)").length, 1, "steer 只投递一次");
  assert.deepEqual(agent.state.queued.steer, [], "投递后 steer 队列为空");
  assert.equal(result.reason, "stop", "回合以 stop 结束");
});

test("转向与追加：followUp 在回合本该 stop 时作为新的一步运行，多个 followUp 按顺序各自得到回答", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, model } = makeAgent([answer("第一段。"), answer("第二段。"), answer("第三段。")]);
  agent.subscribe((event) => {
    if (event.type === "agent_start") {
      agent.followUp("继续");
      agent.followUp("再继续");
    }
  });
  const result = await agent.prompt("写一段");

  assert.deepEqual(
    lines(result.messages),
    ["user(写一段)", "assistant(stop)", "user(继续)", "assistant(stop)", "user(再继续)", "assistant(stop)"],
    "每个 followUp 在上一次 stop 之后进入，各得一个回答",
  );
  assert.equal(model.requests.length, 3, "每个 followUp 一次模型请求");
  assert.equal(result.steps, 3, "steps 计入 followUp 的请求");
  assert.equal(result.reason, "stop", "队列清空后以 stop 结束");
  assert.deepEqual(agent.state.queued.followUp, [], "followUp 队列为空");

  const capped = makeAgent([answer("第一段。"), answer("第二段。"), answer("不该出现")], { maxSteps: 2 });
  capped.agent.followUp("继续");
  capped.agent.followUp("再继续");
  const cappedResult = await capped.agent.prompt("写一段");
  assert.deepEqual(
    [cappedResult.reason, capped.model.requests.length],
    ["maxSteps", 2],
    "maxSteps 计整次运行的模型请求，followUp 的请求也算：用完就以 maxSteps 结束（每次 loop 只给剩下的步数）",
  );
  assert.deepEqual(lines(capped.agent.state.queued.followUp), ["user(再继续)"], "没有运行的 followUp 留在队列");
});

test("转向与追加：最后一次请求期间排队的 steer 先于 followUp 投递；空闲时排队的 steer 随下一个 prompt 进入第一次请求", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, model } = makeAgent([answer("好。"), answer("改成只看 src/。"), answer("文档也更新了。")]);
  agent.steer("只看 src/");
  agent.subscribe((event) => {
    if (event.type === "assistant_message" && model.requests.length === 1) {
      agent.followUp("再更新文档");
      agent.steer("别动测试");
    }
  });
  const result = await agent.prompt("整理代码");

  assert.deepEqual(
    requestLines(model),
    [
      ["user(整理代码)", "user(只看 src/)"],
      ["user(整理代码)", "user(只看 src/)", "assistant(stop)", "user(别动测试)"],
      ["user(整理代码)", "user(只看 src/)", "assistant(stop)", "user(别动测试)", "assistant(stop)", "user(再更新文档)"],
    ],
    "先投递 steer，再运行 followUp",
  );
  assert.equal(result.messages.length, 7, "每条排队消息恰好一次");
});

test("转向与追加：回合以 aborted 或 error 结束时排队的消息留在队列、在 state 中可见，下一个 prompt 按顺序投递", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, model, probe } = makeAgent([
    useTools("a"),
    failure("401 Incorrect API key provided"),
    answer("按 steer 做了。"),
    answer("文档也好了。"),
  ]);
  const release = probe.hold("a");
  const run = agent.prompt("整理代码");
  await settle();
  agent.steer("只看 src/");
  agent.followUp("再更新文档");
  agent.abort();
  release();
  const aborted = await run;

  assert.equal(aborted.reason, "aborted", "第一个回合被中止");
  assert.deepEqual(lines(agent.state.queued.steer), ["user(只看 src/)"], "中止后 steer 仍在队列中");
  assert.deepEqual(lines(agent.state.queued.followUp), ["user(再更新文档)"], "中止后 followUp 仍在队列中");
  assertPaired(agent.state.messages, "中止后 transcript 仍配对");

  const failed = await agent.prompt("继续");
  assert.deepEqual(
    requestLines(model)[1]?.slice(-2),
    ["user(继续)", "user(只看 src/)"],
    "留下的 steer 随下一个 prompt 进入它的第一次请求",
  );
  assert.equal(failed.reason, "error", "第二个回合以不可重试的错误结束");
  assert.deepEqual(lines(agent.state.queued.followUp), ["user(再更新文档)"], "错误结束后 followUp 仍在队列中");

  const done = await agent.prompt("再试一次");
  assert.equal(done.reason, "stop", "第三个回合完成");
  assert.deepEqual(
    lines(done.messages).slice(-5),
    ["assistant(error)", "user(再试一次)", "assistant(stop)", "user(再更新文档)", "assistant(stop)"],
    "followUp 在下一次 stop 之后运行",
  );
  for (const queued of ["user(只看 src/)", "user(再更新文档)"]) {
    assert.equal(lines(done.messages).filter((entry) => entry === queued).length, 1, `${queued} 恰好投递一次`);
  }

  const stopped = makeAgent([answer("好。"), answer("不该出现")]);
  stopped.agent.subscribe((event) => {
    if (event.type === "assistant_message") {
      stopped.agent.followUp("再更新文档");
      stopped.agent.abort();
    }
  });
  const stoppedResult = await stopped.agent.prompt("整理代码");
  assert.deepEqual(
    [stoppedResult.reason, lines(stopped.agent.state.queued.followUp), lines(stoppedResult.messages)],
    ["aborted", ["user(再更新文档)"], ["user(整理代码)", "assistant(stop)"]],
    "loop 以 stop 结束但 signal 已中止：以 aborted 结束，followUp 留在队列，不追加进 transcript（先查取消，再碰队列）",
  );
});

// ---------------------------------------------------------------------------
// Lab 9.4 · 瞬时错误的退避重试
// ---------------------------------------------------------------------------

test("退避重试：瞬时错误按指数退避加抖动重试，重试前移除失败的 assistant，每次等待前发出 retry", {
  timeout: TEST_TIMEOUT_MS,
}, async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { agent, model, events } = makeAgent(
    [failure("503 Service Unavailable"), failure("Connection error."), answer("终于好了。")],
    { retry: { baseDelayMs: 1000 } },
  );
  const retries: { attempt: number; delayMs: number; errorMessage: string }[] = [];
  agent.subscribe((event) => {
    if (event.type === "retry") retries.push(event);
  });

  const run = agent.prompt("你好");
  for (const attempt of [1, 2]) {
    // A run that failed instead of waiting fails the test with its own error.
    await Promise.race([run, settle()]);
    const retry = retries[attempt - 1];
    assert.ok(retry, `第 ${attempt} 次失败后发出 retry`);
    assert.equal(model.requests.length, attempt, "等待结束前不发起新请求");
    const backoff = 1000 * 2 ** (attempt - 1);
    assert.ok(retry.delayMs >= backoff / 2 && retry.delayMs <= backoff, `等待在 [${backoff / 2}, ${backoff}] 之内`);
    t.mock.timers.tick(retry.delayMs - 1);
    await settle();
    assert.equal(model.requests.length, attempt, "等待未满不重试");
    t.mock.timers.tick(1);
  }
  const result = await run;

  assert.deepEqual(
    retries.map(({ attempt, errorMessage }) => `${attempt}:${errorMessage}`),
    ["1:503 Service Unavailable", "2:Connection error."],
    "retry 事件带着次数与 errorMessage",
  );
  assert.deepEqual(
    requestLines(model),
    [["user(你好)"], ["user(你好)"], ["user(你好)"]],
    "重试的请求看不到失败的 assistant",
  );
  assert.deepEqual(lines(result.messages), ["user(你好)", "assistant(stop)"], "transcript 里没有失败的 assistant");
  assert.equal(result.reason, "stop", "重试成功后以 stop 结束");
  assert.equal(result.steps, 1, "steps 只计留在 transcript 中的回答");
  assert.deepEqual(
    eventTypes(events, ["turn_end", "retry"]),
    ["turn_end(error)", "retry(1)", "turn_end(error)", "retry(2)", "turn_end(stop)"],
    "retry 在每次等待之前发出",
  );
  const signal = model.requestOptions[0]?.signal;
  assert.ok(signal, "loop 把这次运行的 signal 交给了模型");
  assert.equal(
    getEventListeners(signal, "abort").length,
    0,
    "wait() 的计时器先到时撤掉它的 abort 监听（谁先到就撤掉另一个）：每次重试留下一个监听是泄漏",
  );
});

test("退避重试：达到 maxRetries 后以 error 结束并保留最后一次失败；401 与无效请求不重试", {
  timeout: TEST_TIMEOUT_MS,
}, async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const exhausted = makeAgent([failure("429 Rate limit reached"), failure("429 Rate limit reached")], {
    retry: { maxRetries: 1, baseDelayMs: 10 },
  });
  exhausted.agent.subscribe((event) => {
    if (event.type === "retry") queueMicrotask(() => t.mock.timers.tick(event.delayMs));
  });
  const result = await exhausted.agent.prompt("你好");
  assert.equal(result.reason, "error", "重试用完后以 error 结束");
  assert.equal(exhausted.model.requests.length, 2, "一次请求加 maxRetries 次重试");
  assert.deepEqual(lines(result.messages), ["user(你好)", "assistant(error)"], "最后一次失败留在 transcript 中");

  const recovered = makeAgent(
    [failure("503 Service Unavailable"), useTools("a"), failure("503 Service Unavailable"), answer("好了。")],
    { retry: { maxRetries: 1, baseDelayMs: 10 } },
  );
  recovered.agent.subscribe((event) => {
    if (event.type === "retry") queueMicrotask(() => t.mock.timers.tick(event.delayMs));
  });
  const again = await recovered.agent.prompt("你好");
  assert.deepEqual(
    [again.reason, eventTypes(recovered.events, ["retry"])],
    ["stop", ["retry(1)", "retry(1)"]],
    "中间有一次成功的请求，连续失败的计数从头开始：maxRetries 1 时两次不相邻的失败各重试一次",
  );

  for (const errorMessage of ["401 Incorrect API key provided", "400 Invalid request: messages must not be empty"]) {
    const permanent = makeAgent([failure(errorMessage), answer("不该出现")]);
    const ended = await permanent.agent.prompt("你好");
    assert.equal(ended.reason, "error", `${errorMessage} 以 error 结束`);
    assert.equal(permanent.model.requests.length, 1, `${errorMessage} 不重试`);
    assert.deepEqual(eventTypes(permanent.events, ["retry"]), [], `${errorMessage} 不发出 retry`);
  }
});

test("退避重试：等待期间 abort() 立即以 aborted 结束，不再请求模型，也不留下计时器", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // Real timers: a mock timer left behind is invisible, a real one is an active resource of the process.
  const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
  const timersBefore = timers();
  const { agent, model, events } = makeAgent([failure("overloaded_error: Overloaded"), answer("不该出现")]);
  agent.subscribe((event) => {
    if (event.type === "retry") queueMicrotask(() => agent.abort());
  });
  const result = await agent.prompt("你好");

  assert.equal(result.reason, "aborted", "等待中 abort() 以 aborted 结束");
  assert.equal(model.requests.length, 1, "没有重试请求");
  assert.deepEqual(lines(result.messages), ["user(你好)"], "失败的 assistant 已移除，transcript 仍配对");
  assert.deepEqual(
    eventTypes(events, ["retry", "agent_end"]),
    ["retry(1)", "agent_end(aborted)"],
    "retry 之后直接 agent_end",
  );
  assert.equal(agent.state.isRunning, false, "Agent 回到空闲");
  assert.equal(
    timers(),
    timersBefore,
    "等待被 abort() 打断时 clearTimeout 撤掉 wait() 的计时器：留下的计时器让进程在运行结束后还要再等 delayMs 才能退出",
  );
});

// ---------------------------------------------------------------------------
// Lab 9.5 · waitForIdle、reset 与被拒的运行
// ---------------------------------------------------------------------------

test("空闲与重置：waitForIdle 在 agent_end 之后 resolve；运行中 reset 抛出一行错误，空闲时清空 transcript 与两个队列", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { agent, probe, events } = makeAgent([useTools("a"), answer("完成。")]);
  await agent.waitForIdle();
  const release = probe.hold("a");
  const run = agent.prompt("读取 a");
  await settle();
  const idle = agent.waitForIdle().then(() => eventTypes(events, ["agent_end"]).length);

  assert.throws(
    () => agent.reset(),
    (error: Error) => !error.message.includes("\n") && /abort\(\)/.test(error.message),
    "运行中 reset 抛出一行错误，提示先 abort()",
  );
  assert.equal(agent.state.messages.length, 1, "被拒的 reset 不清空 transcript");
  release();
  assert.equal(await idle, 1, "waitForIdle 在 agent_end 之后 resolve");
  await run;

  agent.steer("留下的 steer");
  agent.followUp("留下的 followUp");
  agent.reset();
  assert.deepEqual(agent.state.messages, [], "reset 清空 transcript");
  assert.deepEqual(agent.state.queued, { steer: [], followUp: [] }, "reset 清空两个队列");
  assert.equal(agent.state.lastResult, undefined, "reset 清空 lastResult");
});

test("空闲与重置：模型违反协议使 prompt reject 时，已取走的 steer 回到队列，agent_end 照常发出，Agent 回到空闲", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // The second request breaks the protocol after its first event: its iteration throws.
  const scripted = new ScriptedModel([useTools("a")]);
  let requests = 0;
  const model: Model = {
    stream(request, options): ModelStream {
      requests += 1;
      if (requests === 1) return scripted.stream(request, options);
      return {
        async *[Symbol.asyncIterator]() {
          yield { type: "start" };
          throw new Error("stream broke mid-turn");
        },
        result: () => Promise.reject(new Error("stream broke mid-turn")),
      };
    },
  };
  const probe = probeTools();
  const agent = new Agent({ model, tools: probe.tools });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => {
    events.push(event);
    // Typed after the loop took "只看 src/" for this request, before the request broke.
    if (event.type === "model_event" && requests === 2) agent.steer("别动测试");
  });
  const release = probe.hold("a");
  const run = agent.prompt("读取 a");
  await settle();
  agent.steer("只看 src/");
  release();

  await assert.rejects(run, /stream broke mid-turn/, "prompt 以模型的错误 reject");
  assert.deepEqual(
    lines(agent.state.queued.steer),
    ["user(只看 src/)", "user(别动测试)"],
    "已取走但没送达的 steer 回到队列最前面，排在它之后才排队的 steer 之前（[...taken, ...this.steering]）",
  );
  assert.deepEqual(lines(agent.state.messages), ["user(读取 a)"], "transcript 停在这次 loop 开始时，仍配对");
  assert.deepEqual(eventTypes(events, ["agent_end"]), ["agent_end(error)"], "agent_end 照常发出");
  assert.equal(agent.state.isRunning, false, "Agent 回到空闲");
  await agent.waitForIdle();
});
