import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { diagnosticMutation } from "../lib/mutation/diagnostic.js";
import { loopMutants, type Mutation, mutateSource } from "../lib/mutation/mutants.js";
import { sharedPracticeTree } from "../test/support/shared-practice-tree.js";
import { assertVerifyNamesRule, type RuleMistake } from "../test/support/verify-names-rule.js";
import { verifyUpTo } from "../test/support/verify-up-to.js";

const checkpoint = findCheckpoint("07");
const loopFile = "packages/pi-course/src/agent-loop.ts";
// Chapter 07's target: the live file as later checkpoints leave it, walked back to 07.
const target = targetFiles(checkpoint).get(loopFile) ?? "";

interface Mistake extends RuleMistake {
  mutations: Mutation[];
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

    assertVerifyNamesRule(await verifyUpTo(practiceDir(), checkpoint, mistake.lab), mistake, checkpoint, practiceDir());
  }
});
