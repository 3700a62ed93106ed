// Typical learner mistakes, planted one at a time into a finished chapter 07 loop in a practice
// copy: for each, `verify` names the lab it belongs to, and the first failure it prints carries the
// chapter rule that was broken, with the first lines of the actual/expected diff where there is
// one; the lab's hint speaks of the same rule. This protects the learner-facing messages of the
// focused tests and of the manifest from later edits.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { diagnosticMutation } from "../lib/mutation/diagnostic.js";
import { loopMutants, type Mutation, mutateSource } from "../lib/mutation/mutants.js";
import { plainStyle } from "../lib/terminal-style.js";
import { nextLab, verifyTree } from "../lib/verify/verify-labs.js";
import { formatVerification } from "../lib/verify/verify-report.js";
import { sharedPracticeTree } from "../test/support/shared-practice-tree.js";

const checkpoint = findCheckpoint("07");
const loopFile = "packages/pi-course/src/agent-loop.ts";
// Chapter 07's target: the live file as later checkpoints leave it, walked back to 07.
const target = targetFiles(checkpoint).get(loopFile) ?? "";

interface Mistake {
  name: string;
  mutations: Mutation[];
  /** The lab verify must send the learner to. */
  lab: string;
  /** The rule, in the focused test's words, that the first failure must name (and the hint too). */
  rule: string;
  /** Whether the failure is an equality whose diff verify must show. */
  diff?: RegExp;
}

const edit = (find: string, replace: string): Mutation => ({ file: loopFile, find, replace });

const mistakes: Mistake[] = [
  {
    name: "工具结果之后再次追加 assistant",
    mutations: [edit("      messages.push(...results);\n", "      messages.push(...results, assistant);\n")],
    lab: "7.2",
    rule: "每条 assistant 只追加一次",
    diff: /^\+ 'user → assistant → toolResult → assistant → assistant/,
  },
  {
    name: "并发调用的进度带着另一个调用的 id",
    mutations: [
      edit("  const executeOne = ", "  let batch: ToolCall[] = [];\n  const executeOne = "),
      edit("callId: call.id", "callId: (batch[batch.length - 1 - batch.indexOf(call)] ?? call).id"),
      edit(
        '      for (const call of calls) emit(options, { type: "tool_start", call });\n',
        '      batch = calls;\n      for (const call of calls) emit(options, { type: "tool_start", call });\n',
      ),
    ],
    lab: "7.4",
    rule: "进度带着报告它的调用的 id",
  },
  {
    name: "tool_progress 的 callId 是空字符串",
    mutations: [edit("callId: call.id", 'callId: ""')],
    lab: "7.2",
    rule: "进度带着报告它的调用的 id",
    diff: /callId: ''/,
  },
  {
    name: "预取消返回 steps 而不是 steps - 1",
    mutations: [edit('return finish("aborted", steps - 1);', 'return finish("aborted", steps);')],
    lab: "7.5",
    rule: "steps 计数已完成的请求",
    diff: /^\+ 1$/,
  },
  {
    name: "返回 stop 之前多发一个 turn_end",
    mutations: [
      edit(
        'if (assistant.stopReason === "stop" && calls.length === 0) return finish("stop", steps);',
        'if (assistant.stopReason === "stop" && calls.length === 0) {\n      emit(options, { type: "turn_end", reason: "stop", steps });\n      return finish("stop", steps);\n    }',
      ),
    ],
    lab: "7.1",
    rule: "只有一个 turn_end",
    diff: /^\+ 2$/,
  },
  {
    name: "executor 的 rejection 没有被捕获",
    mutations: [
      edit(
        '            const result = failedExecution(call, error);\n            emit(options, { type: "tool_end", result });\n            return result;\n',
        "            throw error;\n",
      ),
    ],
    lab: "7.4",
    rule: "executor 的 rejection 变成配对的 isError 结果，而不是让 runAgentLoop reject",
  },
  {
    name: "length 的调用进入 executor（章节诊断）",
    mutations: [diagnosticMutation(checkpoint)],
    lab: "7.3",
    rule: "截断的调用不进入 executor",
    diff: /^\+ 2$/,
  },
  { ...loopMutants.completionOrder, lab: "7.4", rule: "调用声明顺序" },
  { ...loopMutants.noPostBatchAbortCheck, lab: "7.5", rule: "先于 maxSteps" },
];

const practiceDir = sharedPracticeTree(checkpoint, "pi-course-rules-");

test("每个常见错误：verify 指向它所在的 Lab，第一条失败写出被违反的章节规则（相等比较还有差异行），这段 Lab 的提示也讲到这条规则", async () => {
  for (const mistake of mistakes) {
    let source = target;
    for (const mutation of mistake.mutations) source = mutateSource(source, mutation);
    await writeFile(path.join(practiceDir(), ...loopFile.split("/")), source);

    const verification = await verifyTree(practiceDir(), checkpoint);
    assert.ok(verification.built, `${mistake.name}：可以构建`);
    const next = nextLab(verification.labs);
    assert.equal(next?.lab.id, mistake.lab, `${mistake.name}：verify 指向 Lab ${mistake.lab}`);
    const failure = next?.firstFailure;
    assert.ok(failure, `${mistake.name}：有第一条失败`);
    assert.ok(
      failure.error.includes(mistake.rule),
      `${mistake.name}：第一条失败写出“${mistake.rule}”，实际是：${failure.error}`,
    );
    if (mistake.diff !== undefined) {
      assert.ok(
        failure.diff.some((line) => mistake.diff?.test(line)),
        `${mistake.name}：差异行 ${mistake.diff} 在 ${JSON.stringify(failure.diff)} 中`,
      );
    }
    const printed = formatVerification(verification, { checkpoint, dir: practiceDir(), style: plainStyle });
    const shown = printed.slice(printed.indexOf("第一条失败："));
    assert.ok(shown.split("\n").slice(0, 2).join("\n").includes(mistake.rule), `${mistake.name}：verify 打印规则`);
    for (const line of failure.diff) assert.ok(shown.includes(line), `${mistake.name}：verify 打印差异行 ${line}`);
    assert.ok(next?.lab.hint.includes(mistake.rule), `${mistake.name}：Lab ${mistake.lab} 的提示讲到“${mistake.rule}”`);
  }
});
