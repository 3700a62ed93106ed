// Chapter 19 · 持久执行: the durable layer's rules, lab by lab, on real files in a temp folder and a
// real Runtime. Lab 19.1 原子提交 (commit-log.ts, committed-part.ts), Lab 19.2 任务 (tasks.ts and the
// Runtime's userPrompt/completed), Lab 19.3 工具意图 (runtime-steps.ts executeToolCall, recovery.ts),
// Lab 19.4 部分输出 (partial-output.ts, recovery.ts).
import assert from "node:assert/strict";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type Model,
  PushModelStream,
  ScriptedModel,
  type ToolCall,
  ToolRegistry,
  text,
  toolErrorResult,
  userMessage,
} from "@pi/core";
import {
  CommitLog,
  checkTransition,
  committedPart,
  DurableSessionStore,
  durableEntry,
  INTERRUPTED_INTENT,
  NOT_STARTED,
  recoveryPlan,
  taskStates,
} from "../src/durable/index.js";
import { openRuntime } from "../src/runtime/open.js";
import { messageEntry, newHeader, type SessionEntry } from "../src/session/entries.js";
import { partsOf, withDir } from "./runtime-fixture.js";

// biome-ignore lint/suspicious/noExplicitAny: file lines are read field by field
type Line = any;

function lines(file: string): Line[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

const durableData = (file: string) =>
  lines(file).flatMap((line) => (line.customType === "tiny-pi/durable" ? [line.data] : []));

async function durableStore(dir: string, options = {}): Promise<DurableSessionStore> {
  return DurableSessionStore.create(path.join(dir, "session.jsonl"), newHeader(dir), options);
}

function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

function asking(...calls: ToolCall[]): AssistantMessage {
  return assistantMessage([text("我先做这些。"), ...calls], "toolUse");
}

/** A registry of `read` (replay-safe by name) and `bash` (not), each recording its name and what it saw in `file` when it ran. */
function toolsSeeing(file: () => string, seen: string[]): ToolRegistry {
  const tools = new ToolRegistry();
  for (const name of ["read", "bash"]) {
    tools.register({
      name,
      description: name,
      parameters: { type: "object", properties: {} },
      execute: async () => {
        seen.push(`${name}\n${readFileSync(file(), "utf8")}`);
        return { content: [text(`${name} 完成`)] };
      },
    });
  }
  return tools;
}

/** A write that fails (a full disk) for the batch containing `marker`, and appends every other. */
function failingOn(marker: string) {
  return (file: string, text: string) => {
    if (text.includes(marker)) throw Object.assign(new Error("ENOSPC: no space left"), { code: "ENOSPC" });
    appendFileSync(file, text);
  };
}

// Lab 19.1 · 原子提交

test("原子提交：一批记录整批提交或整批不算；写到一半的批次（残尾）读取时被忽略", async () => {
  await withDir(async (dir) => {
    const writes: string[] = [];
    const store = await durableStore(dir, {
      write: (file: string, text: string) => {
        writes.push(text);
        appendFileSync(file, text);
      },
    });
    const task = durableEntry({ kind: "task", task: "t1", state: "pending" }, null, "aaaaaaa1");
    await store.append({ ...task, data: { ...task.data, batch: 2 } } as never);
    await store.append(messageEntry(userMessage("你好"), "aaaaaaa1", "aaaaaaa2"));
    assert.equal(writes.length, 1, "一批只用一次写入：任务与用户消息两行一起写");
    const whole = readFileSync(store.file, "utf8");
    const batch = JSON.stringify({ ...task, id: "aaaaaaa3", data: { ...task.data, batch: 2 } });
    appendFileSync(
      store.file,
      `${batch}\n${JSON.stringify(messageEntry(userMessage("半"), "aaaaaaa3", "aaaaaaa4")).slice(0, 20)}`,
    );
    const part = committedPart(readFileSync(store.file, "utf8"));
    assert.equal(part.bytes, Buffer.byteLength(whole), "只提交了一半的批次不算：已提交的部分到上一批为止");
    assert.equal(part.values.length, 3, "会话头 + 第一批的两行");
    const reopened = await DurableSessionStore.open(store.file);
    assert.equal(readFileSync(store.file, "utf8"), whole, "重新打开时截掉残尾，已提交的字节一个不变");
    assert.equal(reopened.entries().length, 2, "重新打开后只有第一批的两条条目");
  });
});

test("原子提交：一条变更线给提交排序，后一个提交在前一个写完之后才写，按调用顺序落盘", async () => {
  await withDir(async (dir) => {
    const store = await durableStore(dir);
    const order: string[] = [];
    const log = new CommitLog(store.file, {
      // The first write is slow (it yields the event loop a few turns, no clock): a commit that does not
      // wait for the one before it overtakes it.
      write: async (file, text) => {
        const n = JSON.parse(text.split("\n")[0] as string).n;
        if (n === "一") for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        order.push(n);
        appendFileSync(file, text);
      },
    });
    const done: string[] = [];
    const commits = ["一", "二", "三"].map((n) => log.commit([{ n }]).then(() => done.push(n)));
    await log.settled();
    const whenSettled = [...order];
    await Promise.allSettled(commits);
    assert.deepEqual(order, ["一", "二", "三"], "按调用顺序写：第一批写得慢，第二批也等它写完");
    assert.deepEqual(done, ["一", "二", "三"], "按顺序完成：一个提交等前一个");
    assert.deepEqual(whenSettled, ["一", "二", "三"], "settled() 等到此刻为止的每个提交落定：三批都写了");
  });
});

test("原子提交：失败的提交只报告一次，文件退回到上一次提交，后面的提交照常进行", async () => {
  await withDir(async (dir) => {
    const store = await durableStore(dir);
    const before = readFileSync(store.file, "utf8");
    const failures: string[] = [];
    let calls = 0;
    const log = new CommitLog(store.file, {
      onFailure: (error) => failures.push(error.message),
      write: (file, text) => {
        calls += 1;
        if (calls === 2) {
          appendFileSync(file, text.slice(0, 5)); // a full disk mid-write
          throw Object.assign(new Error("ENOSPC: no space left"), { code: "ENOSPC" });
        }
        appendFileSync(file, text);
      },
    });
    await log.commit([{ n: 1 }]);
    await assert.rejects(log.commit([{ n: 2 }]), /ENOSPC/);
    await assert.doesNotReject(log.commit([{ n: 3 }]), "失败的提交不挡住后面的提交");
    await assert.doesNotReject(log.commit([{ n: 4 }]), "失败的提交不挡住后面的提交");
    assert.deepEqual(failures, ["ENOSPC: no space left"], "失败只报告一次");
    const after = readFileSync(store.file, "utf8");
    assert.ok(after.startsWith(`${before}{"n":1}\n`), "截回只截失败的那一批：失败之前已提交的字节一个不变");
    assert.equal(after, `${before}{"n":1}\n{"n":3}\n{"n":4}\n`, "失败的提交不留字节，后面的提交都在");
  });
});

test("原子提交：记录先提交，由它得出的东西才可见：请求发出时，用户提示和它的任务已经在磁盘上", async () => {
  await withDir(async (dir) => {
    const store = await durableStore(dir);
    const onDisk: string[] = [];
    const inner = new ScriptedModel([assistantMessage([text("好的")], "stop")]);
    const model: Model = {
      stream(request, options) {
        onDisk.push(readFileSync(store.file, "utf8"));
        return inner.stream(request, options);
      },
    };
    const runtime = openRuntime({ session: store, model, parts: partsOf(), durable: true });
    await runtime.prompt("你好");
    assert.match(onDisk[0] ?? "", /"你好"/, "模型看到请求之前，用户提示已经提交");
    assert.match(onDisk[0] ?? "", /"state":"running"/, "任务 running 的记录也在请求之前提交");
  });
  await withDir(async (dir) => {
    // The disk fills up as the task's running record is written: the request must not go out.
    const store = await durableStore(dir, { write: failingOn('"state":"running"') });
    let requests = 0;
    const inner = new ScriptedModel([assistantMessage([text("好的")], "stop")]);
    const model: Model = {
      stream(request, options) {
        requests += 1;
        return inner.stream(request, options);
      },
    };
    const runtime = openRuntime({ session: store, model, parts: partsOf(), durable: true });
    await runtime.prompt("你好").catch(() => undefined);
    assert.equal(requests, 0, "写入失败过就不发请求：任务 running 的记录没写下，模型一次也没被调用");
  });
});

// Lab 19.2 · 任务

test("任务：用户提示和它开启的生成任务用一次写入一起提交", async () => {
  await withDir(async (dir) => {
    const writes: string[] = [];
    const store = await durableStore(dir, {
      write: (file: string, text: string) => {
        writes.push(text);
        appendFileSync(file, text);
      },
    });
    const runtime = openRuntime({
      session: store,
      model: new ScriptedModel([assistantMessage([text("好")], "stop")]),
      parts: partsOf(),
      durable: true,
    });
    await runtime.prompt("做一件事");
    const first = (writes[0] ?? "")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    assert.equal(first.length, 2, "第一次写入恰好两行");
    assert.deepEqual(
      [first[0].data.kind, first[0].data.state, first[0].data.batch],
      ["task", "pending", 2],
      "任务在前，标明整批两行",
    );
    assert.equal(first[1].message.role, "user", "用户提示和任务在同一批");
  });
});

test("任务：pending → running → completed，只能向前；运行留下的就是这三个状态", async () => {
  await withDir(async (dir) => {
    const store = await durableStore(dir);
    const runtime = openRuntime({
      session: store,
      model: new ScriptedModel([assistantMessage([text("好")], "stop")]),
      parts: partsOf(),
      durable: true,
    });
    await runtime.prompt("做一件事");
    const states = durableData(store.file)
      .filter((data) => data.kind === "task")
      .map((data) => data.state);
    assert.deepEqual(
      states,
      ["pending", "running", "completed"],
      "一次运行留下的任务记录依次是 pending、running、completed",
    );
    assert.throws(
      () => checkTransition("t", "completed", "running"),
      /只能 pending → running → completed/,
      "任务不能倒退：completed 之后不能再 running",
    );
    assert.throws(
      () => checkTransition("t", "pending", "completed"),
      /只能 pending → running → completed/,
      "任务不能跳步：pending 不能直接 completed",
    );
    assert.throws(
      () => checkTransition("t", undefined, "running"),
      /只能 pending → running → completed/,
      "新任务先是 pending：不能直接 running",
    );
    for (const [from, to] of [
      [undefined, "pending"],
      ["pending", "running"],
      ["running", "running"],
      ["running", "completed"],
    ] as const) {
      assert.doesNotThrow(
        () => checkTransition("t", from, to),
        `向前一步可以：${from ?? "（新任务）"} → ${to}（running → running 是同一次运行的继续请求）`,
      );
    }
  });
});

test("任务：重新打开时还在 running 的任务没有完成过，回到 pending，恢复时继续它", () => {
  const entries = [
    durableEntry({ kind: "task", task: "t1", state: "pending" }, null, "bbbbbbb1"),
    messageEntry(userMessage("做"), "bbbbbbb1", "bbbbbbb2"),
    durableEntry({ kind: "task", task: "t1", state: "running" }, "bbbbbbb2", "bbbbbbb3"),
  ] as unknown as SessionEntry[];
  assert.equal(taskStates(entries).get("t1"), "pending", "running 变回 pending");
  const finished = [
    durableEntry({ kind: "task", task: "t2", state: "pending" }, null, "bbbbbbb4"),
    durableEntry({ kind: "task", task: "t2", state: "running" }, "bbbbbbb4", "bbbbbbb5"),
    durableEntry({ kind: "task", task: "t2", state: "completed" }, "bbbbbbb5", "bbbbbbb6"),
  ];
  assert.equal(
    taskStates(finished).get("t2"),
    "completed",
    "每个任务取它最后一条记录的 state：走完 pending、running、completed 的任务是 completed",
  );
  assert.equal(recoveryPlan(entries, () => false).pendingTask, "t1", "恢复时继续这个任务");
});

// Lab 19.3 · 工具意图

test("工具意图：意图在 execute() 之前提交，记下工具当时说的可重放性", async () => {
  await withDir(async (dir) => {
    const store = await durableStore(dir);
    const seen: string[] = [];
    const model = new ScriptedModel([
      asking(call("c1", "read"), call("c2", "bash")),
      assistantMessage([text("完")], "stop"),
    ]);
    const runtime = openRuntime({
      session: store,
      model,
      parts: partsOf(toolsSeeing(() => store.file, seen)),
      durable: true,
    });
    await runtime.prompt("读再跑");
    assert.equal(seen.length, 2, "两个调用各执行一次");
    for (const [name, id] of [
      ["read", "c1"],
      ["bash", "c2"],
    ]) {
      const saw = seen.find((text) => text.startsWith(`${name}\n`)) ?? "";
      assert.match(saw, new RegExp(`"callId":"${id}"`), `调用 ${id} 执行时它的意图已经在文件里`);
    }
    const intents = durableData(store.file).filter((data) => data.kind === "intent");
    assert.deepEqual(
      intents.map((data) => [data.tool, data.replaySafe]),
      [
        ["read", true],
        ["bash", false],
      ],
      "意图记下工具当时说的可重放性：read 可重放，bash 不可",
    );
  });
  await withDir(async (dir) => {
    // The disk fills up as the intent is written: the tool must not run.
    const store = await durableStore(dir, { write: failingOn('"kind":"intent"') });
    const seen: string[] = [];
    const runtime = openRuntime({
      session: store,
      model: new ScriptedModel([asking(call("c1", "bash")), assistantMessage([text("完")], "stop")]),
      parts: partsOf(toolsSeeing(() => store.file, seen)),
      durable: true,
    });
    await runtime.prompt("跑").catch(() => undefined);
    assert.equal(seen.length, 0, "意图没能写下（写入失败过）就不执行：bash 一次也没跑");
  });
});

test("工具意图：恢复时只有记录和当前工具都说可重放才重跑，其余得到与调用成对的 interrupted 错误结果；没有意图的调用从没开始：可重放的现在运行，其余成对地说没有运行", () => {
  const calls = [call("r1", "read"), call("b1", "bash"), call("r2", "read"), call("n1", "bash"), call("n2", "read")];
  const entries = [
    messageEntry(userMessage("做"), null, "ccccccc1"),
    messageEntry(asking(...calls), "ccccccc1", "ccccccc2"),
    durableEntry({ kind: "intent", callId: "r1", tool: "read", replaySafe: true }, "ccccccc2", "ccccccc3"),
    durableEntry({ kind: "intent", callId: "b1", tool: "bash", replaySafe: false }, "ccccccc3", "ccccccc4"),
    durableEntry({ kind: "intent", callId: "r2", tool: "read", replaySafe: false }, "ccccccc4", "ccccccc5"),
  ] as unknown as SessionEntry[];
  const plan = recoveryPlan(entries, (name) => name === "read");
  assert.deepEqual(
    plan.rerun.map((c) => c.id),
    ["r1", "n2"],
    "只有记录与现在的工具都说可重放才重跑：可重放的 read 重跑，从没开始的 read 现在运行；bash 与记录说不可重放的 read 不重跑",
  );
  assert.equal(plan.replayedIntents, 1, "只有 r1 是重跑的意图：从没开始的 n2 不算");
  assert.deepEqual(
    plan.interrupted.map((result) => [result.toolCallId, result.isError]),
    [
      ["b1", true],
      ["r2", true],
      ["n1", true],
    ],
    "bash 与记录里不可重放的 read 成对标为 interrupted；从没开始的 bash 成对地说没有运行（留给模型经由门禁再调用）",
  );
  assert.equal(plan.interrupted[0]?.content[0]?.text, INTERRUPTED_INTENT, "有意图的 bash：可能跑过，也可能没有");
  assert.equal(plan.interrupted[2]?.content[0]?.text, NOT_STARTED, "没有意图的 bash：从没开始，说它没有运行");
  const notSafeNow = recoveryPlan(entries, () => false);
  assert.deepEqual(
    notSafeNow.interrupted.map((result) => result.toolCallId),
    ["r1", "b1", "r2", "n1", "n2"],
    "当前工具不再可重放时也不重跑",
  );
});

// Lab 19.4 · 部分输出

test("部分输出：流式文本边到边提交，按批而不是每个 token 一次", async () => {
  await withDir(async (dir) => {
    const store = await durableStore(dir);
    let midStream = "";
    const model: Model = {
      stream() {
        const stream = new PushModelStream();
        void (async () => {
          stream.push({ type: "start" });
          for (let n = 0; n < 100; n += 1) {
            stream.push({ type: "text_delta", delta: "字" });
            if (n === 80) {
              // The stream waits (event-loop turns, no clock) until its first 64 characters are on disk.
              for (let turn = 0; turn < 10_000 && !midStream.includes('"kind":"partial"'); turn += 1) {
                await new Promise((resolve) => setImmediate(resolve));
                midStream = readFileSync(store.file, "utf8");
              }
            }
          }
          stream.push({ type: "done", reason: "stop" });
          stream.end(assistantMessage([text("字".repeat(100))], "stop"));
        })();
        return stream;
      },
    };
    const runtime = openRuntime({ session: store, model, parts: partsOf(), durable: true });
    await runtime.prompt("写一百个字");
    assert.match(midStream, /"kind":"partial"/, "流还没结束，已有部分输出提交");
    const partials = durableData(store.file).filter((data) => data.kind === "partial");
    assert.ok(
      partials.length >= 1 && partials.length <= 2,
      `按批提交，不是每个 token 一次：100 个 token 提交了 ${partials.length} 批`,
    );
  });
});

test("部分输出：恢复时部分回答成为用户看得见的中止条目，任务回到 pending、请求从头再发；模型出错的回答不产生后续任务", async () => {
  const entries = [
    durableEntry({ kind: "task", task: "t1", state: "pending" }, null, "ddddddd1"),
    messageEntry(userMessage("讲个故事"), "ddddddd1", "ddddddd2"),
    durableEntry({ kind: "task", task: "t1", state: "running" }, "ddddddd2", "ddddddd3"),
    durableEntry({ kind: "partial", task: "t1", text: "从前有座山，" }, "ddddddd3", "ddddddd4"),
    durableEntry({ kind: "partial", task: "t1", text: "山里有座庙" }, "ddddddd4", "ddddddd5"),
  ] as unknown as SessionEntry[];
  const plan = recoveryPlan(entries, () => false);
  assert.equal(plan.partial?.stopReason, "aborted", "部分回答是一条中止的回答");
  assert.deepEqual(
    plan.partial?.content,
    [{ type: "text", text: "从前有座山，山里有座庙" }],
    "中止的回答里是已经流出的文字，按文件顺序连起来",
  );
  assert.equal(plan.pendingTask, "t1", "请求从头再发");
  // The task's first request streamed and completed (an answer asking for a tool, and its result);
  // the process died before the second request streamed a word.
  const earlier = [
    durableEntry({ kind: "task", task: "t1", state: "pending" }, null, "eeeeeee1"),
    messageEntry(userMessage("读了再讲"), "eeeeeee1", "eeeeeee2"),
    durableEntry({ kind: "task", task: "t1", state: "running" }, "eeeeeee2", "eeeeeee3"),
    durableEntry({ kind: "partial", task: "t1", text: "我先读一下文件。" }, "eeeeeee3", "eeeeeee4"),
    messageEntry(asking(call("r1", "read")), "eeeeeee4", "eeeeeee5"),
    messageEntry(toolErrorResult(call("r1", "read"), "读不到"), "eeeeeee5", "eeeeeee6"),
  ] as unknown as SessionEntry[];
  const next = recoveryPlan(earlier, () => false);
  assert.equal(next.pendingTask, "t1", "第二个请求还没完成：请求从头再发");
  assert.equal(
    next.partial?.content.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "",
    "",
    "只算分支最后一条消息之后的部分输出：更早的属于已经完整回答了的请求，不拼进恢复的回答",
  );
  assert.equal(next.partial, undefined, "没有流出文字就没有部分回答：空串 → undefined，不造一条空的中止回答");

  await withDir(async (dir) => {
    const store = await durableStore(dir);
    const failed = assistantMessage([], "error");
    failed.errorMessage = "服务器出错";
    const runtime = openRuntime({
      session: store,
      model: new ScriptedModel([failed]),
      parts: partsOf(),
      durable: true,
    });
    await runtime.prompt("问");
    const tasks = durableData(store.file).filter((data) => data.kind === "task");
    assert.deepEqual(
      tasks.map((data) => data.state),
      ["pending", "running", "completed"],
      "出错的回答结束了任务：completed()（Lab 19.2 ⑤）不管 outcome 是什么都记下 completed",
    );
    assert.equal(new Set(tasks.map((data) => data.task)).size, 1, "没有新的后续任务");
    assert.equal(recoveryPlan(store.entries(), () => false).pendingTask, undefined, "恢复时没有要继续的任务");
  });
});
