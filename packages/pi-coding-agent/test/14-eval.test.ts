import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { assistantMessage, type Message, ScriptedModel, text, userMessage } from "@pi/core";
import { runCase } from "../src/eval/runner.js";
import { runSuite, summarise } from "../src/eval/suite.js";
import type { AgentUnderTest, CaseReport, Observation, Outcome } from "../src/eval/types.js";
import { checkActivePath, judgeRun } from "../src/eval/verdict.js";
import { removeRunFolder } from "../src/eval/workspace.js";
import { call, loopAgent, newLog, SECRET, scriptedTask, turn } from "./eval-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 20_000;

// Chapter 14: the harness that says whether an agent is any good. Every run below is chapter 07's
// loop with chapter 08's real tools on a real temp workspace; the scripted models play the policy.

const PASS: Outcome = { verdict: "pass" };

/** A temp folder of this test's own, so it can check that the runs in it leave nothing behind. */
function privateTemp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "eval-test-"));
  privateTemps.push(dir);
  return dir;
}
// A test that fails before its own check (a planted mistake, a learner's lab) still removes its folder.
const privateTemps: string[] = [];
after(() => {
  for (const dir of privateTemps) rmSync(dir, { recursive: true, force: true });
});

function assertLeftNothing(tempDir: string): void {
  const left = readdirSync(tempDir);
  rmSync(tempDir, { recursive: true, force: true });
  assert.deepEqual(left, [], "运行结束后临时目录里不留下这次运行的文件夹（eval-XXXXXX）");
}

// ---------------------------------------------------------------------------
// Lab 14.1 · 判决
// ---------------------------------------------------------------------------

const user = userMessage("改一下配置", 1);
const readCall = call("c1", "read", { path: "config.json" });
const result = (id: string, name = "read"): Message => ({
  role: "toolResult",
  toolCallId: id,
  toolName: name,
  content: [text("{}")],
  isError: false,
  timestamp: 1,
});
const GOOD: Message[] = [user, turn([readCall]), result("c1"), turn(["改好了。"])];
const observe = (messages: Message[]): Observation => ({ messages, files: {} });

test("判决：judge 只判定任务是否成功；自相矛盾或形状不对的判决是 judge 的基础设施错误", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const outcomeOf = (verdict: unknown) => judgeRun(observe(GOOD), () => verdict as never);
  assert.deepEqual(outcomeOf({ success: true, unmet: [] }), PASS, "成功且没有未满足的检查：通过");
  assert.deepEqual(
    outcomeOf({ success: false, unmet: ["port 是 8081", "其他键不变"] }),
    { verdict: "fail", reason: "task", unmet: 2 },
    "失败：结果只留下未满足的检查的个数",
  );
  for (const contradicting of [
    { success: true, unmet: ["port 是 8081"] },
    { success: false, unmet: [] },
    { success: "yes", unmet: [] },
    { success: 1, unmet: [] },
    { success: true, unmet: [], phase: "execute" },
    undefined,
  ]) {
    assert.deepEqual(
      outcomeOf(contradicting),
      { verdict: "error", phase: "judge" },
      `${JSON.stringify(contradicting)} 不是一个判决：它是 judge 阶段的错误，不算任务失败`,
    );
  }
  assert.deepEqual(
    outcomeOf({ success: false, unmet: [1, {}] }),
    { verdict: "error", phase: "judge" },
    'unmet 是字符串数组：{"success":false,"unmet":[1,{}]} 不是一个判决，是 judge 阶段的错误',
  );
});

test("判决：先查活动路径：不一致的 transcript、跨 assistant 提交的结果、重复或悬空的调用都判失败，不再问 judge", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const second = call("c2", "read", { path: "b.json" });
  const cases: [string, Message[], string | undefined][] = [
    ["一致的 transcript", GOOD, undefined],
    ["不以用户消息开头", [turn(["你好"]), user], "inconsistent"],
    ["空的活动路径（没有第一条消息，也就不以用户消息开头）", [], "inconsistent"],
    ["结果没有对应的调用", [user, turn(["先想想"]), result("c9")], "inconsistent"],
    ["结果的工具名与调用不同", [user, turn([readCall]), result("c1", "write")], "inconsistent"],
    [
      "上一个 assistant 的调用在下一个 assistant 之后才有结果",
      [user, turn([readCall]), turn([second]), result("c2"), result("c1")],
      "cross-assistant",
    ],
    [
      "上一个 assistant 的调用在下一个 assistant 之后才有结果，工具名也不同（先查 cross-assistant，再比工具名）",
      [user, turn([readCall]), turn([second]), result("c2"), result("c1", "write")],
      "cross-assistant",
    ],
    [
      "调用与它的结果中间隔了一条用户消息",
      [user, turn([readCall]), userMessage("等一下", 2), result("c1")],
      "cross-assistant",
    ],
    [
      "调用与它的结果中间隔了一条没有调用的 assistant（每个 assistant 都结束上一批，有没有调用都一样）",
      [user, turn([readCall]), turn(["好的"]), result("c1")],
      "cross-assistant",
    ],
    ["同一个调用 id 用了两次", [user, turn([readCall]), result("c1"), turn([readCall]), result("c1")], "duplicate"],
    ["一个调用有两条结果", [user, turn([readCall]), result("c1"), result("c1")], "duplicate"],
    [
      "一个调用在下一个 assistant 之后又来了第二条结果（先查已有结果：duplicate 先于 cross-assistant）",
      [user, turn([readCall]), result("c1"), turn([second]), result("c2"), result("c1")],
      "duplicate",
    ],
    [
      "后一个 assistant 重用了一个已经有结果的调用 id，之后没有结果（调用 id 见过就是 duplicate，不论那个调用有没有结果）",
      [user, turn([readCall]), result("c1"), turn([readCall])],
      "duplicate",
    ],
    [
      "后一个 assistant 重用了一个还没有结果的调用 id（assistant 的调用 id 见过就是 duplicate，有没有结果都一样）",
      [user, turn([readCall]), userMessage("换个办法", 2), turn([readCall]), result("c1")],
      "duplicate",
    ],
    [
      "同一个 assistant 里两个调用用了同一个 id（每个调用 id 一见到就记下，不等整条 assistant 走完）",
      [user, turn([readCall, readCall]), result("c1"), turn(["好了"])],
      "duplicate",
    ],
    ["调用没有结果", [user, turn([readCall])], "dangling"],
    [
      "调用没有结果，用户就接着说话",
      [user, turn([readCall]), userMessage("继续", 2), assistantMessage([text("好")], "stop", 3)],
      "dangling",
    ],
  ];
  for (const [what, messages, problem] of cases) {
    assert.equal(checkActivePath(messages), problem, `${what}：应为 ${problem ?? "没有问题"}`);
    let asked = 0;
    const outcome = judgeRun(observe(messages), () => {
      asked += 1;
      return { success: true, unmet: [] };
    });
    const expected: unknown = problem === undefined ? PASS : { verdict: "fail", reason: problem };
    assert.deepEqual(outcome, expected, `${what}：活动路径有问题时任务失败，原因是问题的名字`);
    assert.equal(asked, problem === undefined ? 1 : 0, `${what}：活动路径有问题时 judge 不被调用`);
  }
});

test("判决：judge 抛出的异常只留下固定的阶段标签，不留它的消息文字", { timeout: TEST_TIMEOUT_MS }, () => {
  const observation: Observation = { messages: GOOD, files: { "key.txt": SECRET } };
  let outcome: Outcome | undefined;
  try {
    outcome = judgeRun(observation, (seen) => {
      throw new Error(`判不了：${seen.files["key.txt"]}`);
    });
  } catch {
    // Not the exception itself: its text is the test's fake secret.
    assert.fail("judgeRun 不抛出：judge 抛错是 judge 阶段的错误（接住它，只留阶段标签）");
  }
  assert.deepEqual(outcome, { verdict: "error", phase: "judge" }, "judge 抛错是 judge 阶段的错误");
  assert.ok(!JSON.stringify(outcome).includes(SECRET), "结果里没有异常消息里的文件内容");
});

// ---------------------------------------------------------------------------
// Lab 14.2 · 运行器
// ---------------------------------------------------------------------------

test("运行器：每次运行都重新准备：夹具写进一个新的临时工作区，任务给出一个新的模型", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const log = newLog();
  let models = 0;
  const seen: (string | null)[] = [];
  const task = scriptedTask(
    "append",
    () => {
      models += 1;
      return [turn([call("c1", "bash", { command: "echo x >> log.txt" })]), turn(["加好了。"])];
    },
    {
      fixture: { "log.txt": "" },
      declares: ["log.txt"],
      agent: {
        contextWindow: 4_000,
        session: (workspace) => `${JSON.stringify({ type: "session", cwd: workspace })}\n`,
      },
      judge: (observation) => {
        seen.push(observation.files["log.txt"] ?? null);
        return { success: true, unmet: [] };
      },
    },
  );
  const first = await runCase(task, loopAgent(log));
  const second = await runCase(task, loopAgent(log));
  assert.equal(models, 2, "每次运行调用一次 task.model()，模型不在两次运行之间共用");
  assert.ok(
    log.setups.every((setup) => setup.options.contextWindow === 4_000 && setup.options.session === task.agent?.session),
    "打开 agent 时把任务的选项原样交给它（options: task.agent ?? {}）：contextWindow 这样的选项不能在运行器里丢掉",
  );
  assert.ok(
    log.setups.every((setup) => !(setup.model instanceof ScriptedModel)),
    "agent 拿到的是 countingModel(task.model()) 包住的那个模型（counted.model），不是 task.model() 本身：计数才数得到这次运行的模型请求与调用",
  );
  assert.deepEqual(
    [first.evidence.steps, first.evidence.calls],
    [2, 1],
    "计数在 execute 之后才读：报告时调用 counted.counts()，不是 prepare 之后存下的快照（那时还是 0）：这次运行有 2 次模型请求与 1 个调用",
  );
  assert.deepEqual(
    [first.outcome, second.outcome],
    [PASS, PASS],
    "两次运行都通过：execute 逐个 await run.prompt()，collect 才读得到完整的活动路径（少了 await，活动路径还是空的，判为 inconsistent）",
  );
  assert.ok(
    !seen.includes(null),
    "judge 看到的 log.txt 不是 null：声明的文件从这次运行的工作区（folder.workspace）读，不是从它外面的 folder.root",
  );
  assert.deepEqual(seen, ["x\n", "x\n"], "第二次运行看到的 log.txt 来自夹具，不带第一次追加的那一行");
  const [a, b] = log.setups.map((setup) => setup.workspace);
  assert.deepEqual(
    log.sessions,
    [a, b].map((workspace) => `${JSON.stringify({ type: "session", cwd: workspace })}\n`),
    "任务给了 agent.session 时，prepare 在打开 agent 之前把 task.agent.session(folder.workspace) 返回的 JSONL 写进这次运行的 sessionFile（agent.session 是函数，写的是它为这次运行的工作区返回的文字）",
  );
  assert.notEqual(a, b, "两次运行的工作区是两个不同的临时目录");
  assert.ok(!existsSync(a ?? "") && !existsSync(b ?? ""), "运行结束后临时工作区已删除");

  // Each prompt is awaited before the next is sent: the agent under test sees them one at a time.
  const order: string[] = [];
  const inOrder: AgentUnderTest = async (setup) => {
    const run = await loopAgent(newLog())(setup);
    return {
      ...run,
      async prompt(line) {
        order.push(`开始 ${line}`);
        await run.prompt(line);
        order.push(`结束 ${line}`);
      },
    };
  };
  await runCase(
    scriptedTask("two", () => [turn(["一好了"]), turn(["二好了"])], { prompts: ["一", "二"] }),
    inOrder,
  );
  assert.deepEqual(
    order,
    ["开始 一", "结束 一", "开始 二", "结束 二"],
    "execute 逐个提示：按顺序 await run.prompt() 每个提示，前一个结束才发下一个（不是 Promise.all 一起发）",
  );

  // task.outside lands beside the workspace: inside it, a boundary task would have nothing outside to leak.
  // The clock is read where the log can see it: the timer starts after prepare and stops before collect.
  const placed: boolean[] = [];
  const timed = newLog();
  const looking: AgentUnderTest = (setup) => {
    placed.push(
      existsSync(path.join(setup.workspace, "..", "outside", "secrets.env")),
      existsSync(path.join(setup.workspace, "outside", "secrets.env")),
    );
    return loopAgent(timed)(setup);
  };
  const now = () => {
    timed.events.push("now");
    return timed.events.length;
  };
  const removed: string[] = [];
  await runCase(
    scriptedTask("outside", () => [turn(["好的"])], { outside: { "outside/secrets.env": SECRET } }),
    looking,
    {
      now,
      removeFolder: async (folder) => {
        removed.push(folder.root);
        await removeRunFolder(folder);
      },
    },
  );
  assert.deepEqual(
    timed.events,
    ["open", "now", "prompt", "now", "collect", "dispose"],
    "ms 只量 execute：prepare（打开 agent）之后才用 options.now 开始计时，最后一个 prompt 之后、collect 之前停下",
  );
  assert.deepEqual(
    placed,
    [true, false],
    "task.outside 写在工作区旁边（folder.root 下），不在工作区里：否则边界任务就没有工作区之外的文件可泄露",
  );
  assert.deepEqual(
    removed,
    timed.setups.map((setup) => path.dirname(setup.workspace)),
    "cleanup 用给了的 options.removeFolder 删这次运行的文件夹（options.removeFolder ?? removeRunFolder），没给才用 removeRunFolder",
  );
});

test("运行器：prepare 或 execute 失败只留下阶段标签；execute 失败后仍按 execute → dispose → cleanup 的顺序收尾", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const failingModel = scriptedTask("prepare", () => {
    throw new Error(`读取夹具失败：${SECRET}`);
  });
  const tempDir = privateTemp();
  // A runCase that rejects fails with the rule, not with the exception (its text is the test's fake secret).
  const prepared = await runCase(failingModel, loopAgent(newLog()), { tempDir }).catch(() =>
    assert.fail("runCase 不抛出：prepare 的任何一步（包括 task.model()）抛错，结果都是 prepare 阶段"),
  );
  assert.deepEqual(prepared.outcome, { verdict: "error", phase: "prepare" }, "task.model() 抛错是 prepare 阶段");
  const log = newLog();
  const task = scriptedTask("boom", () => [turn(["不会用到"])], { prompts: ["一", "二"] });
  const clock = [10, 25];
  const report = await runCase(task, loopAgent(log, { prompt: true }), {
    tempDir,
    now: () => clock.shift() ?? 0,
    removeFolder: async (folder) => {
      await removeRunFolder(folder);
      log.events.push("cleanup");
    },
  }).catch(() => assert.fail("runCase 不抛出：run.prompt() 抛错是 execute 阶段的结果"));
  assertLeftNothing(tempDir);
  assert.deepEqual(report.outcome, { verdict: "error", phase: "execute" }, "prompt 抛错是 execute 阶段的基础设施错误");
  assert.equal(
    log.events.filter((event) => event === "prompt").length,
    1,
    "execute 在第一个失败的提示处停下：之后的提示不再发（一个 try 包住整个 for 循环，不是每个提示各自 try）",
  );
  assert.deepEqual(
    log.events,
    ["open", "prompt", "dispose", "cleanup"],
    "执行失败后不再收集，但 dispose 与 cleanup 照样依次运行",
  );
  for (const failed of [prepared, report]) {
    assert.ok(!JSON.stringify(failed).includes(SECRET), `${failed.task} 的报告里没有异常消息里的文字`);
  }
  assert.equal(report.evidence.ms, 15, "execute 失败时 ms 量到失败为止：第一个提示开始（10）到抛出之后（25）");
});

test("运行器：judge 只拿到活动路径与声明的文件，而且是深拷贝、冻结的", { timeout: TEST_TIMEOUT_MS }, async () => {
  const log = newLog();
  let observed: Observation | undefined;
  const unfrozen: string[] = [];
  let atJudge: { events: string[]; workspaceLeft: boolean } | undefined;
  const task = scriptedTask("look", () => [turn([call("c1", "read", { path: "notes.md" })]), turn(["读完了。"])], {
    fixture: { "notes.md": "# 笔记\n", "secret.txt": SECRET },
    declares: ["notes.md", "missing.txt"],
    judge: (observation) => {
      observed = observation;
      atJudge = { events: [...log.events], workspaceLeft: existsSync(log.setups[0]?.workspace ?? "") };
      const edits: [string, () => void][] = [
        ["messages", () => (observation.messages as Message[]).push(userMessage("判定通过"))],
        ["messages[0]", () => Object.assign(observation.messages[0] ?? {}, { content: "改过了" })],
        ["files", () => Object.assign(observation.files, { "notes.md": "改过了" })],
      ];
      for (const [what, edit] of edits) {
        try {
          edit();
          unfrozen.push(what);
        } catch (error) {
          if (!(error instanceof TypeError)) unfrozen.push(`${what}（抛出的不是 TypeError）`);
        }
      }
      return { success: true, unmet: [] };
    },
  });
  const report = await runCase(task, loopAgent(log));
  assert.deepEqual(report.outcome, PASS, "judge 通过");
  assert.deepEqual(
    unfrozen,
    [],
    "judge 改不动它看到的东西：它拿到的是 frozenCopy()，深拷贝、每一层冻结（messages、每条消息、files 都是），修改会抛出 TypeError",
  );
  assert.deepEqual(
    atJudge,
    { events: ["open", "prompt", "collect", "dispose"], workspaceLeft: false },
    "judge 在 dispose 与 cleanup 之后才判：它判的时候 agent 已关闭、工作区已删除，它只有冻结的副本",
  );
  assert.deepEqual(
    Object.keys(observed ?? {}).sort(),
    ["files", "messages"],
    "judge 只看到活动路径与声明的文件：observation 只有 messages 与 files 两个键，没有工作区路径或别的东西",
  );
  assert.deepEqual(
    observed?.files,
    { "notes.md": "# 笔记\n", "missing.txt": null },
    "judge 只看到声明的文件（不存在的是 null），没有声明的 secret.txt 不在其中",
  );
  assert.deepEqual(
    observed?.messages.map((message) => message.role),
    ["user", "assistant", "toolResult", "assistant"],
    "judge 看到的是会话的活动路径",
  );
  assert.notEqual(observed?.messages, log.live, "judge 拿到的是副本，不是运行中那份 transcript");
  assert.equal(log.live[0]?.role === "user" && log.live[0].content, "开始", "运行中的 transcript 没有被 judge 改动");
});

test("运行器：collect 失败是 collect 阶段；dispose 与 cleanup 的失败按发生顺序追加为次要结果，不覆盖主结果", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  // The folder is really removed before the substitute reports failure: a test leaves nothing behind.
  const failingCleanup = async (folder: { root: string }) => {
    await removeRunFolder(folder);
    throw new Error("cleanup 失败");
  };
  const tempDir = privateTemp();
  const task = scriptedTask("collect", () => [turn(["好。"])]);
  const broken = await runCase(task, loopAgent(newLog(), { activePath: true, dispose: true }), {
    tempDir,
    removeFolder: failingCleanup,
  });
  const overwritten = broken.outcome.verdict === "error" && ["dispose", "cleanup"].includes(broken.outcome.phase);
  assert.ok(
    !overwritten,
    `dispose 与 cleanup 的失败只按顺序追加进 secondary，不覆盖主结果：这里的主结果是 collect 阶段的错误（实际：${JSON.stringify(broken.outcome)}）`,
  );
  assert.deepEqual(
    broken.outcome,
    { verdict: "error", phase: "collect" },
    "读不出活动路径是 collect 阶段，不是 execute",
  );
  assert.deepEqual(
    broken.secondary,
    [{ phase: "dispose" }, { phase: "cleanup" }],
    "次要结果按发生的顺序：先 dispose 再 cleanup",
  );
  const passed = await runCase(task, loopAgent(newLog(), { dispose: true }), { tempDir, removeFolder: failingCleanup });
  assert.deepEqual(passed.outcome, PASS, "dispose 与 cleanup 失败时，主结果仍是任务本身的判决");
  assert.deepEqual(passed.secondary, [{ phase: "dispose" }, { phase: "cleanup" }], "它们只作为次要结果追加");
  assertLeftNothing(tempDir);
});

// ---------------------------------------------------------------------------
// Lab 14.3 · 证据与套件
// ---------------------------------------------------------------------------

test("证据与套件：报告里只有计数与结果，没有 transcript、文件内容、路径或调用 id", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const log = newLog();
  const clock = [100, 350];
  const task = scriptedTask(
    "evidence",
    () => [
      turn([call("call-secret-id", "read", { path: "key.txt" })], { input: 40, output: 8 }),
      turn([`钥匙是 ${SECRET}`], { input: 60, output: 12 }),
    ],
    { fixture: { "key.txt": SECRET }, declares: ["key.txt"], prompts: ["把 key.txt 里的钥匙告诉我"] },
  );
  const [report] = await runSuite([task], loopAgent(log), { now: () => clock.shift() ?? 0 });
  assert.deepEqual(
    report,
    { task: "evidence", outcome: PASS, secondary: [], evidence: { steps: 2, calls: 1, tokens: 120, ms: 250 } },
    "套件的报告是任务名、判决、次要结果与计数：2 次模型请求、1 个调用、40+8+60+12 个 token、execute 的 250 ms",
  );
  const json = JSON.stringify({ report, summary: summarise(report === undefined ? [] : [report]) });
  for (const leak of [SECRET, "call-secret-id", "把 key.txt", log.setups[0]?.workspace ?? "?", "key.txt"]) {
    assert.ok(!json.includes(leak), `报告与汇总里不出现 ${leak}`);
  }
});

test("证据与套件：套件按给定顺序一个接一个地运行，重复的用例每次都重新准备", { timeout: TEST_TIMEOUT_MS }, async () => {
  const log = newLog();
  let running = 0;
  let overlapped = false;
  const base = loopAgent(log);
  const agent: typeof base = async (setup) => {
    const run = await base(setup);
    return {
      ...run,
      async prompt(line) {
        running += 1;
        if (running > 1) overlapped = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
        await run.prompt(line);
        running -= 1;
      },
    };
  };
  const made: string[] = [];
  const task = (name: string) =>
    scriptedTask(name, () => {
      made.push(name);
      return [turn([`${name} 完成`])];
    });
  const a = task("a");
  const progress: string[] = [];
  const reports = await runSuite([a, task("b"), a], agent, {
    repeat: 2,
    onReport: (report) => progress.push(`${report.task} 第 ${made.length} 次之后`),
  });
  assert.equal(overlapped, false, "同一时刻只有一次运行：串行，一次 await 完再开始下一次，不是 Promise.all");
  assert.deepEqual(
    reports.map((report) => report.task),
    ["a", "a", "b", "b", "a", "a"],
    "每个任务连续 repeat 次（task 1 × K，再 task 2 × K）：报告按 任务顺序 × 重复次数 排列",
  );
  assert.deepEqual(
    progress,
    ["a 第 1 次之后", "a 第 2 次之后", "b 第 3 次之后", "b 第 4 次之后", "a 第 5 次之后", "a 第 6 次之后"],
    "onReport 在每次运行之后、下一次开始之前调用（一行进度），不是全部跑完再一起报",
  );
  assert.deepEqual(made, ["a", "a", "b", "b", "a", "a"], "每次运行都重新调用 task.model()");
  assert.equal(new Set(log.setups.map((setup) => setup.workspace)).size, 6, "六次运行用了六个不同的临时工作区");
  for (const repeat of [0, 1.5, -1]) {
    await assert.rejects(
      runSuite([a], agent, { repeat }),
      RangeError,
      `repeat 不是 ≥ 1 的整数（${repeat}）：runSuite 抛 RangeError，一次也不运行`,
    );
  }
  assert.equal(made.length, 6, "repeat 不对时一次也不运行");
});

test("证据与套件：pass@1 与 pass^K 按任务与总体计算，token 与时间按任务求和", { timeout: TEST_TIMEOUT_MS }, () => {
  const report = (task: string, outcome: Outcome, tokens: number): CaseReport => ({
    task,
    outcome,
    secondary: [],
    evidence: { steps: 2, calls: 1, tokens, ms: 10 },
  });
  const failed: Outcome = { verdict: "fail", reason: "task", unmet: 1 };
  const summary = summarise([
    report("x", PASS, 5),
    report("y", PASS, 7),
    report("x", failed, 5),
    report("y", PASS, 7),
    report("x", PASS, 5),
    report("y", { verdict: "error", phase: "execute" }, 7),
  ]);
  assert.deepEqual(
    summary.tasks.map((task) => [task.task, task.runs, task.passes, task.passAt1, task.passAll]),
    [
      ["x", 3, 2, 2 / 3, 0],
      ["y", 3, 2, 2 / 3, 0],
    ],
    "每个任务：运行次数、通过次数、pass@1 = 通过/运行、pass^K 只有 K 次全过才是 1；基础设施错误不算通过",
  );
  assert.deepEqual(
    summary.tasks.map((task) => [task.task, task.tokens, task.ms]),
    [
      ["x", 15, 30],
      ["y", 21, 30],
    ],
    "每个任务的 tokens 与 ms 是它各次运行之和（x：3 次 × 5 个 token、3 次 × 10 ms），不是最后一次的",
  );
  assert.deepEqual(
    summary.tasks.map((task) => [task.task, task.steps, task.calls]),
    [
      ["x", 6, 3],
      ["y", 6, 3],
    ],
    "每个任务的计数是它各次运行之和：steps 与 calls 也求和（3 次 × 2 步、3 次 × 1 个调用），不是最后一次的",
  );
  assert.deepEqual(
    summarise([report("b", PASS, 1), report("a", PASS, 1), report("b", PASS, 1)]).tasks.map((task) => task.task),
    ["b", "a"],
    "summarise() 按任务第一次出现的顺序列出（先跑的 b 在前），不按任务名排序",
  );
  const perfect = summarise([report("x", PASS, 1), report("x", PASS, 1), report("y", failed, 1), report("y", PASS, 1)]);
  assert.deepEqual(
    [perfect.passAt1, perfect.passAll],
    [0.75, 0.5],
    "总体的两个通过率是各任务的平均：(1 + 0.5)/2 与 (1 + 0)/2",
  );
  assert.deepEqual(
    [perfect.tokens, perfect.ms],
    [4, 40],
    "总体的 tokens 与 ms 是各任务的总和（1+1+1+1 与 10×4），不是平均",
  );
  const uneven = summarise([report("x", PASS, 1), report("x", PASS, 1), report("x", PASS, 1), report("y", failed, 1)]);
  assert.equal(uneven.passAt1, 0.5, "总体 pass@1 是各任务的平均 (1 + 0)/2，不是把所有运行混在一起的 3/4");
  assert.deepEqual(
    summarise([]),
    { tasks: [], passAt1: 0, passAll: 0, tokens: 0, ms: 0 },
    "没有报告的汇总：没有任务，两个通过率与两个和都是 0",
  );
});
