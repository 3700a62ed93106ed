// `npm run eval` as a learner runs it: the built eval CLI as a child process, offline, against a
// Chat Completions server on 127.0.0.1 (never any other address), with bad flags, and interrupted.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { type CliResult, cliEnv, finished } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

const evalPath = fileURLToPath(new URL("../../src/eval-cli/main.js", import.meta.url));

/** Runs the eval with its own temp folder (TMPDIR), so a test sees what the run left there. */
async function withTemp<T>(use: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "eval-cli-test-"));
  try {
    return await use(tmp);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

function startEval(args: string[], tmp: string) {
  return spawn(process.execPath, [evalPath, ...args], {
    env: cliEnv({ TMPDIR: tmp, TEMP: tmp, TMP: tmp }),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const runEval = (args: string[], tmp: string): Promise<CliResult> => finished(startEval(args, tmp));

const PRACTICE = [
  "readme-answer",
  "edit-config",
  "fix-test",
  "rename-symbol",
  "create-file",
  "refuse-escape",
  "long-compaction",
  "resume-crash",
];

test("npm run eval 离线：八个练习任务与留出部分都通过，表格分两部分，退出码 0，临时目录不留下", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withTemp(async (tmp) => {
    const table = await runEval([], tmp);
    assert.equal(table.code, 0, `每个离线任务都通过时退出码是 0（stderr：${table.stderr}）`);
    const [practice = "", heldOut = ""] = table.stdout.split("留出部分");
    for (const task of PRACTICE) {
      assert.match(
        practice,
        new RegExp(`^${task} +通过 +\\d+ +\\d+ +\\d+ +\\d+\\.\\d\\d s$`, "m"),
        `练习部分有 ${task} 一行：判决、steps、calls、tokens、时间`,
      );
    }
    assert.match(heldOut, /不在任何练习目录里/, "留出部分单独报告");
    assert.match(heldOut, /^resume-interrupted +通过/m, "留出部分有自己的任务");
    assert.deepEqual(await readdir(tmp), [], "运行结束后没有留下临时目录");

    const json = await runEval(["--json"], tmp);
    assert.equal(json.code, 0, "--json 同样以 0 退出");
    const report = JSON.parse(json.stdout);
    assert.equal(report.everyPass, true, "JSON 报告写明全部通过");
    assert.deepEqual(
      report.practice.reports.map((r: { task: string }) => r.task),
      PRACTICE,
      "练习部分按套件的顺序报告",
    );
    assert.deepEqual(
      Object.keys(report.practice.reports[0]).sort(),
      ["evidence", "outcome", "secondary", "task"],
      "每次运行的报告只有任务名、判决、次要结果与计数",
    );
    assert.ok(!json.stdout.includes(tmp), "报告里没有临时目录的路径");

    const only = await runEval(["--only", "readme-answer"], tmp);
    assert.equal(only.code, 0, "--only readme-answer 通过，以 0 退出");
    assert.match(only.stdout, /^readme-answer +通过/m, "--only 只跑给出的任务");
    assert.ok(!only.stdout.includes("留出部分"), "--only 选中的任务里没有留出的任务：不打印空的留出部分表格");
  });
});

test("npm run eval --base-url --model --repeat 2：同一个任务交给 127.0.0.1 上的服务两次，报告 pass@1 与 pass^2", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const server = await startChatServer([
    toolCallReply("call_a", "read", { path: "README.md" }, { input: 50, output: 10 }),
    textReply(["项目名是 ", "pinecone。"], { input: 70, output: 6 }),
    toolCallReply("call_b", "read", { path: "README.md" }, { input: 50, output: 10 }),
    textReply(["我不知道。"], { input: 70, output: 4 }),
  ]);
  try {
    await withTemp(async (tmp) => {
      const args = ["--base-url", server.baseURL, "--model", "local-test", "--repeat", "2", "--only", "readme-answer"];
      const json = await runEval([...args, "--json"], tmp);
      assert.equal(json.code, 0, `真实模型的运行完成就以 0 退出，通过率是测量结果（stderr：${json.stderr}）`);
      const report = JSON.parse(json.stdout);
      const [task] = report.practice.summary.tasks;
      assert.deepEqual(
        [task.task, task.runs, task.passes, task.passAt1, task.passAll, task.tokens],
        ["readme-answer", 2, 1, 0.5, 0, 50 + 10 + 70 + 6 + 50 + 10 + 70 + 4],
        "第一次答对、第二次答错：pass@1 是 50%，pass^2 是 0，token 是服务报告的用量之和",
      );
      assert.equal(server.requests.length, 4, "每次运行两个请求，一共四个");
      assert.equal(server.requests[0].model, "local-test", "请求用的是 --model 给的模型名");
      assert.equal(report.model, "local-test", "报告写出模型名");
    });
  } finally {
    await server.close();
  }
});

test("npm run eval 的错误用法：一行中文说明改法，退出码 2，不打印堆栈，什么也不运行", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withTemp(async (tmp) => {
    const cases: [string[], RegExp][] = [
      [["--repeat", "0"], /^--repeat 0 不是 1 到 999 之间的整数/],
      [["--base-url", "http://127.0.0.1:9/v1"], /^--base-url 和 --model 要一起给出/],
      [["--only", "no-such-task"], /^没有名为 no-such-task 的任务/],
      [["--frm", "practice/14"], /^不认识的参数 --frm/],
    ];
    for (const [args, message] of cases) {
      const result = await runEval(args, tmp);
      assert.equal(result.code, 2, `${args.join(" ")}：用法错误的退出码是 2`);
      assert.match(result.stderr, message, `${args.join(" ")}：说明写出哪里错、怎样改`);
      assert.equal(result.stderr.trim().split("\n").length, 1, `${args.join(" ")}：只有一行，没有堆栈`);
      assert.equal(result.stdout, "", `${args.join(" ")}：没有表格`);
    }
    const missing = await runEval(["--from", "no-such-practice/14"], tmp);
    assert.match(
      missing.stderr,
      /^--from no-such-practice\/14 不是目录/,
      "--from 的错误写出给出的练习目录，照输入的样子（相对运行命令的地方），不是“.”",
    );
    assert.deepEqual(await readdir(tmp), [], "错误的用法没有创建任何临时目录");
    const help = await runEval(["--help"], tmp);
    assert.equal(help.code, 0, "--help 以 0 退出");
    assert.match(help.stdout, /^用法：npm run eval -- \[--from practice\/14\]/, "--help 打印用法，第一行列出参数");
    assert.deepEqual(await readdir(tmp), [], "--help 什么也不运行");
  });
});

test("npm run eval 被 Ctrl-C 打断：以 130 退出，运行中的临时工作区全部删除", { timeout: HANG_GUARD_MS }, async () => {
  await withTemp(async (tmp) => {
    const child = startEval([], tmp);
    const done = finished(child);
    // fix-test runs node --test twice: the signal comes while a task is running.
    await new Promise<void>((resolve) => {
      child.stderr?.on("data", (text: Buffer) => {
        if (text.toString().includes("edit-config")) resolve();
      });
    });
    child.kill("SIGINT");
    const result = await done;
    assert.equal(result.code, 130, "被 SIGINT 打断以 130 退出");
    assert.deepEqual(await readdir(tmp), [], `没有留下任何临时目录（eval 的 stderr：${result.stderr.trim()}）`);
  });
});
