import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type Model,
  type ModelEvent,
  ScriptedModel,
  userMessage,
} from "@pi/core";
import { type LoopEvent, runAgentLoop } from "@pi/course";
import { ModelRecord } from "../src/host/model-record.js";
import { ModelSwitch } from "../src/host/model-switch.js";
import { piFieldsStore } from "../src/host/pi-fields.js";
import {
  catalogueModel,
  changeAfterTurn,
  createModelCatalogue,
  modelChangeEntry,
  modelInForce,
  resolveRoute,
  routedModel,
  thinkingLevelChangeEntry,
  thinkingLevelInForce,
} from "../src/models/index.js";
import { openRuntime } from "../src/runtime/index.js";
import { messageEntry, type SessionEntry } from "../src/session/entries.js";
import { JsonlSessionStore } from "../src/session/jsonl-store.js";
import { BACKUP, BIG, fleet, physical, requestsOf, SMALL } from "./models-fixture.js";
import { asks, lookTools, partsOf, says, sessionFile, withDir } from "./runtime-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 5_000;

function failed(errorMessage: string): AssistantMessage {
  return { ...assistantMessage([], "error"), errorMessage };
}

function marked(message: AssistantMessage, provider: string, model: string): AssistantMessage {
  return { ...message, api: "openai-completions", provider, model } as AssistantMessage;
}

function request(reason: "prompt" | "continuation" | "compaction" = "prompt") {
  return { reason, previous: undefined, messages: [userMessage("hi")] };
}

// ─── Lab 18.1 · 目录 ───

test("目录：物理模型与虚拟模型的 id 互不相同；重复的 id、未注册 provider 的模型各一行被拒", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const route = () => BIG.id;
  const catalogue = createModelCatalogue(["local"], [BIG, SMALL], [{ id: "auto", route, describe: "" }]);
  assert.deepEqual(
    [...catalogue.physical.keys(), ...catalogue.virtual.keys()],
    ["local/big", "local/small", "auto"],
    "目录按 id 收下每个物理模型与虚拟模型",
  );
  assert.throws(
    () => createModelCatalogue(["local"], [BIG, { ...BIG }]),
    /^Error: 模型 id local\/big 在目录里出现了两次/,
    "同一个物理 id 出现两次要被拒绝",
  );
  assert.throws(
    () => createModelCatalogue(["local"], [BIG], [{ id: "local/big", route, describe: "" }]),
    /^Error: 虚拟模型 local\/big 的 id 已经被占用：物理模型和虚拟模型的 id 不能相同/,
    "虚拟模型不能用物理模型的 id",
  );
  assert.throws(
    () =>
      createModelCatalogue(
        ["local"],
        [BIG],
        [
          { id: "auto", route, describe: "" },
          { id: "auto", route, describe: "" },
        ],
      ),
    /^Error: 虚拟模型 auto 的 id 已经被占用/,
    "两个虚拟模型也不能同名：id 已被另一个虚拟模型占用时同样拒绝",
  );
  assert.throws(
    () => createModelCatalogue(["local"], [BIG, BACKUP]),
    /^Error: 模型 backup\/big 的 provider backup 没有注册/,
    "目录只收已注册 provider 的模型",
  );
  assert.throws(
    () => createModelCatalogue(["local"], [{ ...BIG, id: "big" }]),
    /^Error: 模型 big 的 id 应当是 local\/big（provider\/modelId）/,
    "物理模型的 id 是 provider/modelId",
  );
});

test("目录：解析虚拟模型时拒绝虚拟到虚拟、未知的 id、未注册的 provider、抛错的选择函数，各一行", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const routes: Record<string, () => string | string[]> = {
    loop: () => "other",
    other: () => BIG.id,
    unknown: () => "local/huge",
    unregistered: () => "cloud/big",
    empty: () => [],
    throws: () => {
      throw new Error("预算用完了\n第二行");
    },
  };
  const catalogue = createModelCatalogue(
    ["local"],
    [BIG],
    Object.entries(routes).map(([id, route]) => ({ id, route, describe: "" })),
  );
  const refusal = (id: string) => {
    try {
      resolveRoute(catalogue, id, request());
    } catch (error) {
      return (error as Error).message;
    }
    return assert.fail(`路由 ${id} 应当被拒绝`);
  };
  assert.match(refusal("loop"), /^虚拟模型 loop 路由到了虚拟模型 other：路由只能指向物理模型/, "虚拟到虚拟被拒");
  assert.match(
    refusal("unknown"),
    /^虚拟模型 unknown 路由到未知的模型 "local\/huge"：目录里有 local\/big/,
    "未知 id 被拒",
  );
  assert.match(
    refusal("unregistered"),
    /^虚拟模型 unregistered 路由到 cloud\/big，但 provider cloud 没有注册/,
    "未注册的 provider 被拒",
  );
  assert.equal(refusal("throws"), "虚拟模型 throws 的路由出错（预算用完了）：这个请求没有发出", "抛错的路由是一行");
  assert.match(refusal("empty"), /^虚拟模型 empty 的路由没有给出物理模型 id/, "没有给出任何物理模型的路由被拒");
  assert.match(refusal("nowhere"), /^nowhere 不是目录里的虚拟模型$/, "只解析目录里的虚拟模型");
  for (const id of Object.keys(routes))
    if (id !== "other") assert.doesNotMatch(refusal(id), /\n/, `${id} 的拒绝是一行`);
  assert.deepEqual(
    resolveRoute(catalogue, "other", request()).map((model) => model.id),
    ["local/big"],
    "指向物理模型的路由解析成那个模型",
  );
});

// ─── Lab 18.2 · 路由 ───

test("路由：每个请求带着原因问一次路由：用户的提示是 prompt，工具结果之后是 continuation，压缩摘要是 compaction", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { catalogue, connect, asked, models } = fleet(
    (request) => (request.reason === "compaction" ? SMALL.id : BIG.id),
    {
      [BIG.id]: [asks("call-1", "look", { path: "a" }), says("看完了。"), says("b 也看完了。")],
      [SMALL.id]: [says("摘要")],
    },
  );
  const model = routedModel(catalogue, "auto", { connect });
  const result = await runAgentLoop({ model, context: { messages: [userMessage("看一下 a")] }, tools: lookTools() });
  assert.equal(result.reason, "stop", "经过路由的一轮照常结束");
  const summariser = routedModel(catalogue, "auto", { connect, reason: "compaction" });
  await summariser.stream({ messages: [userMessage("总结")], tools: [] }).result();
  assert.deepEqual(
    asked.map((entry) => entry.reason),
    ["prompt", "continuation", "compaction"],
    "第一次是提示，工具结果之后是继续，摘要是压缩",
  );
  assert.equal(models.get(BIG.id)?.requests.length, 2, "对话的两个请求都到了路由选的模型");
  assert.equal(models.get(SMALL.id)?.requests.length, 1, "摘要到了更便宜的模型");
  await model.stream({ messages: [...result.messages, userMessage("再看一下 b")], tools: [] }).result();
  assert.equal(
    asked.at(-1)?.reason,
    "prompt",
    "只有最新一条是工具结果时才是 continuation：早先有过工具结果、最新一条是用户的新提示，仍是 prompt",
  );
});

test("路由：previous 是分支上一次的选择，出错或中止的回答不算；回答带上 Pi 的 api、provider、model", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { catalogue, connect, asked } = fleet(() => BACKUP.id, { [BACKUP.id]: [says("好")] });
  const history = [
    userMessage("一"),
    marked(says("小模型答的"), "local", "small"),
    userMessage("二"),
    marked(failed("503 overloaded"), "local", "big"),
    marked({ ...assistantMessage([], "aborted") }, "local", "big"),
    userMessage("三"),
  ];
  const model = routedModel(catalogue, "auto", { connect, previous: () => "local/big" });
  const reply = (await model.stream({ messages: history, tools: [] }).result()) as unknown as Record<string, unknown>;
  assert.deepEqual(asked, [{ reason: "prompt", previous: "local/small" }], "出错与中止的回答不是选择");
  assert.deepEqual(
    [reply.api, reply.provider, reply.model],
    ["openai-completions", "backup", "big"],
    "回答带上 Pi 的 api、provider、model，写的是路由选中的模型",
  );
  await model.stream({ messages: [userMessage("新分支")], tools: [] }).result();
  assert.equal(asked[1]?.previous, "local/big", "消息里没有选择时，用分支上生效的模型");
});

test("路由：路由从不改 transcript：物理模型收到的请求与直接调用它时一样，只多了回答上谁回答的字段", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const script = [asks("call-1", "look", { path: "a" }), says("看完了。")];
  const prompt = userMessage("看一下 a");
  const direct = new ScriptedModel(script);
  await runAgentLoop({ model: direct, context: { messages: [prompt] }, tools: lookTools() });
  const { catalogue, connect, models } = fleet(() => BIG.id, { [BIG.id]: script });
  const context = { messages: [prompt] };
  const before = structuredClone(context);
  await runAgentLoop({ model: routedModel(catalogue, "auto", { connect }), context, tools: lookTools() });
  const routed = models.get(BIG.id) as ScriptedModel;
  assert.deepEqual(routed.requests[0], direct.requests[0], "第一个请求一字不差");
  // Tool results carry the time they were made; who answered is the one field routing adds.
  const strip = (messages: object[]) =>
    messages.map((message) => {
      const { api, provider, model, timestamp, ...rest } = message as Record<string, unknown>;
      return rest;
    });
  assert.deepEqual(
    strip(requestsOf(routed)[1] ?? []),
    strip(requestsOf(direct)[1] ?? []),
    "第二个请求只多了谁回答的字段",
  );
  assert.deepEqual(context, before, "调用者的 context 没有被改");
  // A transcript with a failed reply in it: routing hands it on as it is, the failure included.
  const failing = fleet(() => BIG.id, { [BIG.id]: [says("好")] });
  const history = [userMessage("一"), marked(failed("503 overloaded"), "local", "big"), userMessage("再试一次")];
  await routedModel(failing.catalogue, "auto", { connect: failing.connect })
    .stream({ messages: history, tools: [] })
    .result();
  assert.deepEqual(
    requestsOf(failing.models.get(BIG.id) as ScriptedModel)[0],
    history,
    "routing 不改 transcript：出错的回答也一字不差地交给物理模型，不删不补",
  );
});

/**
 * `model` whose result() settles a few microtasks after its last event (as a provider that finishes
 * its bookkeeping after the stream closes): the loop is already waiting on it when it settles.
 */
function settlingLate(model: Model): Model {
  return {
    stream(request, options) {
      const inner = model.stream(request, options);
      let iterated!: () => void;
      const closed = new Promise<void>((resolve) => {
        iterated = resolve;
      });
      const result = (async () => {
        const message = await inner.result();
        await closed;
        for (let step = 0; step < 3; step += 1) await null;
        return message;
      })();
      return {
        async *[Symbol.asyncIterator]() {
          yield* inner;
          iterated();
        },
        result: () => result,
      };
    },
  };
}

test("路由：选物理模型（没有路由）和经过路由时，loop 的事件与微任务的先后都与第 09 章直接用模型时完全一样（没有多出的 await）", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const script = [asks("call-1", "look", { path: "a" }), says("看完了。")];
  const trace = async (model: Model) => {
    const log: string[] = [];
    let ticking = true;
    const ticker = (async () => {
      for (let tick = 0; ticking && tick < 10_000; tick += 1) {
        log.push("tick");
        await null;
      }
    })();
    await runAgentLoop({
      model,
      context: { messages: [userMessage("看一下 a")] },
      tools: lookTools(),
      onEvent: (event: LoopEvent) =>
        log.push(event.type === "model_event" ? `model:${(event.event as ModelEvent).type}` : event.type),
    });
    ticking = false;
    await ticker;
    return log;
  };
  const direct = await trace(new ScriptedModel(script));
  const { catalogue, connect } = fleet(() => BIG.id, { [BIG.id]: script });
  const throughCatalogue = await trace(catalogueModel(catalogue, BIG.id, { connect }));
  assert.ok(direct.includes("tick") && direct.includes("turn_end"), "记录里既有事件也有微任务");
  assert.deepEqual(throughCatalogue, direct, "选了物理模型（没有路由）时，事件与微任务交错的顺序不变");
  const routed = fleet(() => BIG.id, { [BIG.id]: script });
  const throughRoute = await trace(routedModel(routed.catalogue, "auto", { connect: routed.connect }));
  assert.deepEqual(throughRoute, direct, "经过路由也不多等一步：标记谁回答不靠包一层 then");
  // A reply that settles only after its last event: a wrapping `then` would make the loop wait one step more.
  const late = fleet(() => BIG.id, { [BIG.id]: script });
  const directLate = await trace(settlingLate(new ScriptedModel(script)));
  const routedLate = await trace(
    routedModel(late.catalogue, "auto", { connect: (model) => settlingLate(late.connect(model)) }),
  );
  assert.deepEqual(
    routedLate,
    directLate,
    "最终消息在最后一个事件之后才定下来时，经过路由也不多等一步：标记谁回答不靠包一层 then 和新的流",
  );
});

test("路由：回退——第一个模型答 5xx 或连不上时同一个请求交给下一个，失败的那次不进 transcript；4xx 不回退", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const notes: string[] = [];
  const { catalogue, connect, models } = fleet(() => [BIG.id, BACKUP.id], {
    [BIG.id]: [failed("503 Service Unavailable"), failed("connection error: cannot reach x"), failed("401 bad key")],
    [BACKUP.id]: [says("备用的答"), says("又是备用的答")],
  });
  const model = routedModel(catalogue, "auto", {
    connect,
    onFallback: (note) => notes.push(`${note.from.id}→${note.to.id}`),
  });
  const events: string[] = [];
  const first = await runAgentLoop({
    model,
    context: { messages: [userMessage("一")] },
    tools: lookTools(),
    onEvent: (event) => events.push(event.type === "model_event" ? event.event.type : event.type),
  });
  assert.equal(first.reason, "stop", "第一个模型 503 时，这一轮由下一个模型答完");
  assert.deepEqual(
    first.messages.map((message) => message.role),
    ["user", "assistant"],
    "失败的那次回答不在 transcript 里",
  );
  assert.equal((first.messages[1] as unknown as { provider: string }).provider, "backup", "回答记下是备用模型答的");
  assert.ok(!events.includes("error"), "失败那次的事件一个也没有传出来");
  const second = await model.stream({ messages: [userMessage("二")], tools: [] }).result();
  assert.equal(second.stopReason, "stop", "连不上也回退");
  const third = await model.stream({ messages: [userMessage("三")], tools: [] }).result();
  assert.deepEqual([third.stopReason, third.errorMessage], ["error", "401 bad key"], "4xx 是请求本身的问题，不回退");
  assert.deepEqual(notes, ["local/big→backup/big", "local/big→backup/big"], "每次回退都告诉调用者从谁转到谁");
  assert.equal(models.get(BACKUP.id)?.requests.length, 2, "4xx 的请求没有交给备用模型");
});

// ─── Lab 18.3 · 分支上的状态 ───

function entry(id: string, parentId: string | null, fields: object): SessionEntry {
  return { id, parentId, timestamp: "2026-01-01T00:00:00.000Z", ...fields } as SessionEntry;
}

test("分支上的状态：从叶往回最新的 model_change 或带 provider/model 的回答决定，别的分支上更新的不算；thinking 默认 off", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const root = messageEntry(userMessage("你好"), null, "00000001");
  const onA = entry("00000002", "00000001", { type: "model_change", provider: "local", modelId: "small" });
  const think = entry("00000003", "00000002", { type: "thinking_level_change", thinkingLevel: "high" });
  const failedReply = messageEntry(marked(failed("503"), "backup", "big"), "00000003", "00000004");
  // Written later, on another branch from the root.
  const onB = entry("00000005", "00000001", { type: "model_change", provider: "backup", modelId: "big" });
  const replyB = messageEntry(marked(says("好"), "local", "big"), "00000005", "00000006");
  assert.equal(modelInForce([root]), undefined, "没有选过模型的分支什么也不说");
  assert.equal(modelInForce([root, onA, think, failedReply]), "local/small", "出错的回答不算选择，别的分支不算");
  assert.equal(modelInForce([root, onB]), "backup/big", "分支上最新的 model_change 决定");
  assert.equal(modelInForce([root, onB, replyB]), "local/big", "比 model_change 新的回答也算");
  assert.equal(thinkingLevelInForce([root, onA, think, failedReply]), "high", "最新的 thinking_level_change 决定");
  assert.equal(thinkingLevelInForce([root, onB, replyB]), "off", "没有 thinking_level_change 的分支是 off");
  const lower = entry("00000007", "00000004", { type: "thinking_level_change", thinkingLevel: "low" });
  assert.equal(
    thinkingLevelInForce([root, onA, think, failedReply, lower]),
    "low",
    "思考级别也从叶往回读：最新的 thinking_level_change 决定，更早的 high 不算",
  );
  assert.equal(
    modelInForce([entry("00000008", null, { type: "model_change", provider: "local", modelId: "small" })]),
    "local/small",
    "从叶往回一直走到根：分支的第一条（根）也要读",
  );
  const aborted = messageEntry(marked(assistantMessage([], "aborted"), "backup", "big"), "00000003", "00000009");
  assert.equal(modelInForce([root, onA, think, aborted]), "local/small", "中止的回答不是选择，接着往回走");
  const unnamed = messageEntry(says("没说是谁答的"), "00000003", "0000000a");
  assert.equal(
    modelInForce([root, onA, think, unnamed]),
    "local/small",
    "没说出谁回答的回答（没带 provider/model）被跳过，接着往回走到更早的 model_change",
  );
});

test("分支上的状态：写出的 model_change 与 thinking_level_change 正是 Pi 的形状；模型没变、没有回答时不写", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const change = modelChangeEntry("local/small", "0000000a", "0000000b", new Date("2026-01-01T00:00:00Z"));
  assert.deepEqual(
    Object.keys(change).sort(),
    ["id", "modelId", "parentId", "provider", "timestamp", "type"],
    "model_change 正是 Pi 的字段，不多不少",
  );
  assert.deepEqual(
    [change.type, change.provider, change.modelId, change.parentId, change.timestamp],
    ["model_change", "local", "small", "0000000a", "2026-01-01T00:00:00.000Z"],
    "provider 与 modelId 从 provider/modelId 拆开",
  );
  const nested = modelChangeEntry("router/meta/llama-3", "0000000a", "0000000b");
  assert.deepEqual(
    [nested.provider, nested.modelId],
    ["router", "meta/llama-3"],
    "在第一个 / 处拆开：provider 里没有 /，modelId 里可以还有 /",
  );
  const level = thinkingLevelChangeEntry("high", "0000000b", "0000000c");
  assert.deepEqual(
    Object.keys(level).sort(),
    ["id", "parentId", "thinkingLevel", "timestamp", "type"],
    "thinking_level_change 正是 Pi 的字段",
  );
  assert.deepEqual(
    [level.type, level.thinkingLevel],
    ["thinking_level_change", "high"],
    "thinking_level_change 记下级别",
  );
  assert.equal(changeAfterTurn("local/big", "local/big", "0000000a"), undefined, "同一个模型不写");
  assert.equal(changeAfterTurn("local/big", undefined, "0000000a"), undefined, "没有回答（失败、路由出错）不写");
  assert.equal(changeAfterTurn("local/big", "backup/big", "0000000a")?.provider, "backup", "换了模型就写一条");
  await withDir(async (dir) => {
    await sessionFile(dir, [messageEntry(userMessage("hi"), null, "0000000a"), change, level]);
    const reopened = await JsonlSessionStore.open(path.join(dir, "session.jsonl"));
    assert.deepEqual(reopened.entries().slice(1), [change, level], "第 10 章的读取器原样读回");
  });
});

test("分支上的状态：一轮回退到另一个模型后，model_change 写在这一轮的消息之后，只写一次；选不出模型的一轮不写", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    let broken = false;
    const { catalogue, connect } = fleet(
      () => {
        if (broken) throw new Error("路由坏了");
        return [BIG.id, BACKUP.id];
      },
      {
        [BIG.id]: [failed("503 down"), failed("503 down")],
        [BACKUP.id]: [says("一"), says("二")],
      },
    );
    const models = new ModelSwitch(catalogue, connect, "auto", () => undefined);
    const store = await sessionFile(dir);
    const { runtime } = new ModelRecord(openRuntime({ session: store, model: models.model, parts: partsOf() }), models);
    await runtime.prompt("第一轮");
    await runtime.prompt("第二轮");
    broken = true;
    const failedTurn = await runtime.prompt("第三轮");
    assert.equal(failedTurn.reason, "error", "路由出错的一轮以 error 结束");
    const types = store.entries().map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
    assert.deepEqual(
      types,
      ["user", "assistant", "model_change", "user", "assistant", "user", "assistant"],
      "回退那一轮之后一条 model_change；第二轮模型没变；路由出错的一轮只有它的失败回答，没有 model_change",
    );
    const last = store.entries().at(-1) as SessionEntry;
    assert.match(
      last.type === "message" && last.message.role === "assistant" ? String(last.message.errorMessage) : "",
      /^虚拟模型 auto 的路由出错（路由坏了）/,
      "路由出错写成失败回答的一行",
    );
    const change = store.entries()[2] as SessionEntry & { provider: string; modelId: string };
    assert.deepEqual([change.provider, change.modelId], ["backup", "big"], "记下的是真正回答的模型");
    assert.equal(modelInForce(store.entries()), "backup/big", "分支上生效的是回退到的模型");
  });
});

test("分支上的状态：从一个较早的条目重新打开，生效的是那个分支的模型，不是最后用过的", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const big = physical("local", "big");
    const catalogue = createModelCatalogue(["local", "backup"], [big, SMALL, BACKUP]);
    const scripted = new Map([
      [big.id, new ScriptedModel([says("大")])],
      [SMALL.id, new ScriptedModel([says("小")])],
      [BACKUP.id, new ScriptedModel([says("备")])],
    ]);
    const models = new ModelSwitch(
      catalogue,
      (model) => scripted.get(model.id) as ScriptedModel,
      big.id,
      () => {},
    );
    // As tiny-pi saves them: each reply names who answered it.
    const store = piFieldsStore(await sessionFile(dir), () => models.identity());
    const first = new ModelRecord(openRuntime({ session: store, model: models.model, parts: partsOf() }), models);
    await first.runtime.prompt("一");
    const early = first.runtime.leafId() as string;
    assert.equal(await first.switchTo("small"), "（已切换到 local/small）", "/model 按模型自己的 id 找到 local/small");
    await first.runtime.prompt("二");
    const types = store.entries().map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
    assert.deepEqual(types, ["user", "assistant", "model_change", "user", "assistant"], "切换立即记下，只记一次");
    assert.equal(modelInForce(store.entries()), "local/small", "切换之后生效的是新模型");
    const reopened = openRuntime({ session: store, leaf: early, model: models.model, parts: partsOf() });
    assert.equal(modelInForce(reopened.compaction.path()), "local/big", "早先的分支上生效的是 local/big");
    assert.equal(new ModelRecord(reopened, models).current(), "local/big", "重新打开早先的分支，恢复那个分支的模型");
  });
});
