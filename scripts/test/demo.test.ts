import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { SUMMARY_PREFIX } from "@pi/coding-agent";
import type { Message, ModelRequest, ToolResultMessage } from "@pi/core";
import type { LoopEvent } from "@pi/course";
import { SUMMARY_PROMPT_FILE } from "../../packages/pi-coding-agent/src/host/summarise.js";
import { repoRoot } from "../lib/course/manifest.js";
import { jsonLines } from "../lib/demo/demo-json.js";
import { type ScenarioName, scenarioNames } from "../lib/demo/demo-run.js";
import { runScenario } from "../lib/demo/demo-scenarios.js";
import { formatRun } from "../lib/demo/demo-text.js";
import { runNode } from "../lib/run/child-process.js";
import { colourStyle, plainStyle, styleFor } from "../lib/terminal-style.js";

interface Line {
  kind: string;
  [key: string]: unknown;
}

interface DemoJson {
  requests: string[][];
  events: LoopEvent[];
  messages: Message[];
  result: {
    reason: string;
    steps: number;
    modelRequests: number;
    toolExecutions: number;
    completionOrder: string[];
    transcriptOrder: string[];
  };
}

function parseJsonLines(output: string): DemoJson {
  const lines = output
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
  const result = lines.find((line) => line.kind === "result");
  assert.ok(result, "输出以 result 行结束");
  return {
    requests: lines.filter((line) => line.kind === "request").map((line) => line.roles as string[]),
    events: lines.filter((line) => line.kind === "event").map((line) => line.event as LoopEvent),
    messages: lines.filter((line) => line.kind === "message").map((line) => line.message as Message),
    result: result as unknown as DemoJson["result"],
  };
}

async function scenarioJson(name: ScenarioName): Promise<DemoJson> {
  return parseJsonLines(jsonLines(await runScenario(name)).join("\n"));
}

/** Each event in the chapter's notation, e.g. `model_event(done: toolUse)`. */
function chapterTimeline(events: LoopEvent[]): string[] {
  return events.map(chapterLine);
}

function chapterLine(event: LoopEvent): string {
  switch (event.type) {
    case "model_event":
      return event.event.type === "done"
        ? `model_event(done: ${event.event.reason})`
        : `model_event(${event.event.type})`;
    case "assistant_message":
      return `assistant_message(${event.message.stopReason})`;
    case "tool_start":
      return `tool_start(${event.call.id})`;
    case "tool_progress":
      return `tool_progress(${event.callId})`;
    case "tool_end":
    case "tool_skipped":
      return `${event.type}(${event.result.toolCallId})`;
    case "turn_end":
      return `turn_end(${event.reason})`;
  }
}

function roles(messages: Message[]): string {
  return messages.map((message) => message.role).join(" → ");
}

function toolResults(messages: Message[]): ToolResultMessage[] {
  return messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

test("demo --json：README 往返按章节顺序发出 13 个 LoopEvent，transcript 为四条消息", async () => {
  const { code, output } = await runNode(["--import", "tsx", "scripts/demo.ts", "--json"], repoRoot);
  assert.equal(code, 0, output);
  const run = parseJsonLines(output);

  assert.deepEqual(chapterTimeline(run.events), [
    "model_event(start)",
    "model_event(text_delta)",
    "model_event(toolcall_delta)",
    "model_event(toolcall_end)",
    "model_event(done: toolUse)",
    "assistant_message(toolUse)",
    "tool_start(call-1)",
    "tool_end(call-1)",
    "model_event(start)",
    "model_event(text_delta)",
    "model_event(done: stop)",
    "assistant_message(stop)",
    "turn_end(stop)",
  ]);
  assert.equal(roles(run.messages), "user → assistant → toolResult → assistant");
  assert.deepEqual(toolResults(run.messages)[0]?.content, [
    { type: "text", text: "# tiny-pi\nA small agent runtime." },
  ]);
  assert.deepEqual(run.requests, [["user"], ["user", "assistant", "toolResult"]], "两次请求的 roles");
  assert.deepEqual(
    [run.result.reason, run.result.steps, run.result.modelRequests, run.result.toolExecutions],
    ["stop", 2, 2, 1],
  );
});

test("demo length：executor 0 次，call-1 得到 skipped(length) 结果，以 length 结束", async () => {
  const run = await scenarioJson("length");
  assert.deepEqual(chapterTimeline(run.events).slice(-3), [
    "assistant_message(length)",
    "tool_skipped(call-1)",
    "turn_end(length)",
  ]);
  assert.ok(!run.events.some((event) => event.type === "tool_start" || event.type === "tool_end"));
  const [skipped] = toolResults(run.messages);
  assert.deepEqual(skipped?.details, { skipped: true, reason: "length" });
  assert.deepEqual(skipped?.content, [
    { type: "text", text: "Tool call was not executed because the model response was truncated." },
  ]);
  assert.deepEqual([run.result.reason, run.result.steps, run.result.toolExecutions], ["length", 1, 0]);
});

test("demo stop-with-calls：带调用的 stop 写入 unexpected-stop 结果，以 error 结束", async () => {
  const run = await scenarioJson("stop-with-calls");
  assert.deepEqual(toolResults(run.messages)[0]?.details, { skipped: true, reason: "unexpected-stop" });
  assert.deepEqual(chapterTimeline(run.events).slice(-2), ["tool_skipped(call-1)", "turn_end(error)"]);
  assert.deepEqual([run.result.reason, run.result.steps, run.result.toolExecutions], ["error", 1, 0]);
});

test("demo concurrent：tool_end 按完成顺序 fast → slow，transcript 与第二次请求按 slow → fast", async () => {
  const run = await scenarioJson("concurrent");
  const toolLines = chapterTimeline(run.events).filter((line) => /^tool_(start|end)/.test(line));
  assert.deepEqual(toolLines, [
    "tool_start(slow-call)",
    "tool_start(fast-call)",
    "tool_end(fast-call)",
    "tool_end(slow-call)",
  ]);
  assert.deepEqual(run.result.completionOrder, ["fast-call", "slow-call"]);
  assert.deepEqual(run.result.transcriptOrder, ["slow-call", "fast-call"]);
  assert.deepEqual(run.requests[1], ["user", "assistant", "toolResult", "toolResult"]);
  assert.deepEqual([run.result.reason, run.result.steps, run.result.toolExecutions], ["stop", 2, 2]);
});

test("demo executor-rejects：rejection 变成 call-2 的配对错误结果（只留 message），call-1 的结果保留", async () => {
  const run = await scenarioJson("executor-rejects");
  const [readme, failed] = toolResults(run.messages);
  assert.deepEqual([readme?.toolCallId, readme?.isError], ["call-1", false]);
  assert.deepEqual([failed?.toolCallId, failed?.toolName, failed?.isError], ["call-2", "read", true]);
  const failedText = failed?.content[0]?.text ?? "";
  assert.match(failedText, /disk offline/);
  assert.doesNotMatch(failedText, /\n\s+at /, "不写入 stack");
  assert.equal(run.events.filter((event) => event.type === "tool_end").length, 2, "被 reject 的调用也有 tool_end");
  assert.deepEqual([run.result.reason, run.result.modelRequests, run.result.toolExecutions], ["stop", 2, 2]);
});

test("demo abort-before：不请求模型，只有 turn_end(aborted)，steps 0，保留 user message", async () => {
  const run = await scenarioJson("abort-before");
  assert.deepEqual(run.events, [{ type: "turn_end", reason: "aborted", steps: 0 }]);
  assert.equal(roles(run.messages), "user");
  assert.deepEqual([run.result.reason, run.result.steps, run.result.modelRequests], ["aborted", 0, 0]);
});

test("demo abort-after-tool：保留 read 的结果，不发起第二次请求，以 aborted 与 steps 1 结束", async () => {
  const run = await scenarioJson("abort-after-tool");
  assert.equal(roles(run.messages), "user → assistant → toolResult");
  assert.deepEqual(chapterTimeline(run.events).slice(-2), ["tool_end(call-1)", "turn_end(aborted)"]);
  assert.deepEqual(
    [run.result.reason, run.result.steps, run.result.modelRequests, run.result.toolExecutions],
    ["aborted", 1, 1, 1],
  );
});

test("demo max-steps：maxSteps 1 仍执行 read，结果停在 toolResult，reason 为 maxSteps", async () => {
  const run = await scenarioJson("max-steps");
  assert.equal(roles(run.messages), "user → assistant → toolResult");
  assert.deepEqual(
    [run.result.reason, run.result.steps, run.result.modelRequests, run.result.toolExecutions],
    ["maxSteps", 1, 1, 1],
  );
});

test("demo agent：read 执行期间的 steer 在 toolResult 之后进入请求 2，followUp 在 stop 之后作为请求 3 运行", async () => {
  const run = await runScenario("agent");
  assert.deepEqual(
    run.requests.map((request) => roles(request.messages)),
    ["user", "user → assistant → toolResult → user", "user → assistant → toolResult → user → assistant → user"],
    "steer 紧跟批次结果，followUp 紧跟 stop",
  );
  const agentLines = run.events.flatMap(({ event }) =>
    event.type === "queued" ? [`queued(${event.kind})`] : event.type.startsWith("agent_") ? [event.type] : [],
  );
  assert.deepEqual(
    agentLines,
    ["agent_start", "queued(steer)", "queued(followUp)", "agent_end"],
    "Agent 的事件在时间线上",
  );
  assert.equal(run.result.reason, "stop");
  assert.equal(run.result.steps, 3);
  const text = formatRun(run, plainStyle);
  assert.match(text, /AgentEvent（按发出顺序）/);
  assert.match(text, /queued\(steer\) +只回答项目名，不要解释。/);
});

test("demo compaction：离线走完压缩——请求 1 带完整历史，请求 2 是不带工具的摘要请求，请求 3 从内置模型的摘要开始、调用与结果配对", async () => {
  const run = await runScenario("compaction");
  assert.equal(run.result.reason, "stop");
  assert.equal(run.requests.length, 3);
  const [first, summarising, after] = run.requests as [ModelRequest, ModelRequest, ModelRequest];
  assert.deepEqual(
    first.messages.map((message) => message.role),
    ["user", "assistant", "user", "assistant", "user"],
  );
  assert.deepEqual(summarising.tools, [], "摘要请求不带工具");
  assert.equal(summarising.systemPrompt, readFileSync(SUMMARY_PROMPT_FILE, "utf8"), "系统提示是仓库里的摘要提示");
  assert.deepEqual(
    after.messages.map((message) => message.role),
    ["user", "user", "assistant", "toolResult"],
  );
  const opening = JSON.stringify(after.messages[0]);
  assert.ok(opening.includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1)), "请求 3 从摘要开始");
  assert.ok(opening.includes("## Goal\\n第一章讲什么？"), "内置模型的摘要取自它收到的对话");
  assert.equal(run.compactions?.length, 1);
  assert.equal(run.compactions?.[0]?.request, 2);
  assert.equal(run.compactions?.[0]?.firstKept, "user", "firstKeptEntryId 是一段交互的开头");
  const text = formatRun(run, plainStyle);
  assert.match(
    text,
    /请求 2 · 摘要请求（不带工具）收到 \[user\]\n +（上下文已压缩：约 \d+ → \d+ token，4 条较早的消息换成了摘要）/,
  );
  assert.match(text, /请求 3 · model\.stream\(\) 收到 \[user, user, assistant, toolResult\]/);
  const again = await runScenario("compaction");
  assert.deepEqual(
    again.requests.map((request) => request.messages.map((message) => message.content)),
    run.requests.map((request) => request.messages.map((message) => message.content)),
    "离线、确定：两次运行的每个请求（包括摘要）内容相同",
  );
});

test("demo 文本输出：每个场景都打印事件、transcript 与结果；README 往返显示两次请求的 roles", async () => {
  for (const name of scenarioNames) {
    const run = await runScenario(name);
    const text = formatRun(run, plainStyle);
    const events = run.through === "Agent" ? "AgentEvent（按发出顺序）" : "LoopEvent（按发出顺序）";
    for (const heading of [events, "transcript（最终 messages）", "结果"]) {
      assert.ok(text.includes(heading), `${name}：含 ${heading}`);
    }
    assert.ok(!text.includes("\u001b["), `${name}：plainStyle 不含颜色`);
  }
  const readme = formatRun(await runScenario("readme"), plainStyle);
  assert.match(readme, /请求 1 · model\.stream\(\) 收到 \[user\]/);
  assert.match(readme, /请求 2 · model\.stream\(\) 收到 \[user, assistant, toolResult\]/);
  assert.match(readme, /user → assistant → toolResult → assistant/);
});

test("demo 颜色：只在 TTY 上使用，设置 NO_COLOR 时不用", () => {
  assert.equal(styleFor({ isTTY: true }, {}), colourStyle);
  assert.equal(styleFor({ isTTY: true }, { NO_COLOR: "1" }), plainStyle);
  assert.equal(styleFor({ isTTY: false }, {}), plainStyle);
  assert.equal(styleFor({}, {}), plainStyle);
});

test("demo --scenario 未知名称：一行说明列出可用场景，非零退出，不输出运行", async () => {
  const { code, output } = await runNode(["--import", "tsx", "scripts/demo.ts", "--scenario", "lenght"], repoRoot);
  assert.notEqual(code, 0);
  const lines = output.trim().split("\n");
  assert.equal(lines.length, 1, output);
  assert.match(lines[0] ?? "", /"lenght"/);
  for (const name of scenarioNames) assert.ok(lines[0]?.includes(name), `列出 ${name}`);
});

test("demo 参数错误（缺少 --scenario 的取值、未知选项）：一行说明并给出用法，非零退出", async () => {
  for (const [args, message] of [
    [["--scenario"], /^选项 --scenario 缺少取值：/],
    [["--bogus"], /^未知选项 --bogus：/],
  ] as const) {
    const { code, output } = await runNode(["--import", "tsx", "scripts/demo.ts", ...args], repoRoot);
    assert.notEqual(code, 0);
    const lines = output.trim().split(/\r?\n/);
    assert.equal(lines.length, 1, output);
    assert.match(lines[0] ?? "", message);
    assert.ok(lines[0]?.endsWith("用法：npm run demo -- [--scenario <名称>] [--json | --html <文件.html>]"), lines[0]);
  }
});

test("demo workspace：真实的 read 读取临时 workspace 里的 README.md，loop 照常两次请求，结束后删除 workspace", async () => {
  const { code, output } = await runNode(
    ["--import", "tsx", "scripts/demo.ts", "--scenario", "workspace", "--json"],
    repoRoot,
  );
  assert.equal(code, 0, output);
  const lines = output
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
  const workspace = lines.find((line) => line.kind === "scenario")?.workspace;
  assert.equal(typeof workspace, "string", "scenario 行写出临时 workspace");
  assert.equal(existsSync(workspace as string), false, "运行结束后 workspace 已删除");
  const run = parseJsonLines(output);
  const [readResult] = toolResults(run.messages);
  assert.deepEqual(
    readResult?.content,
    [{ type: "text", text: "# tiny-pi\nA small agent runtime." }],
    "磁盘上的 README",
  );
  assert.equal(readResult?.isError, false);
  const answer = run.messages.at(-1);
  assert.ok(answer?.role === "assistant" && JSON.stringify(answer.content).includes("tiny-pi"), "回答说出项目名");
  assert.deepEqual([run.result.reason, run.result.modelRequests, run.result.toolExecutions], ["stop", 2, 1]);

  const inProcess = await runScenario("workspace");
  assert.deepEqual(
    inProcess.requests[0]?.tools.map((tool) => tool.name),
    ["read", "write", "edit", "bash"],
    "模型看到第 08 章的四个工具",
  );
});

test("demo workspace：运行中按 Ctrl-C（SIGINT），临时 workspace 也被删除，进程按信号结束", async () => {
  const module = pathToFileURL(path.join(repoRoot, "scripts/lib/demo/demo-workspace.ts")).href;
  const script = `
    import { withDemoWorkspace } from ${JSON.stringify(module)};
    await withDemoWorkspace({ "README.md": "# tiny-pi\\n" }, async (root) => {
      console.log(root);
      await new Promise(() => setInterval(() => {}, 1000));
    });`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const root = await new Promise<string>((resolve) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("\n")) resolve(stdout.trim());
    });
  });
  assert.equal(existsSync(path.join(root, "README.md")), true, "运行中 workspace 存在");
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  child.kill("SIGINT");
  assert.equal(await exited, "SIGINT", "进程仍按 SIGINT 结束");
  assert.equal(existsSync(root), false, "临时 workspace 已删除");
});
