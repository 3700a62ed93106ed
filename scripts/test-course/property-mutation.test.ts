// The property suite's own mutation check: each mutant breaks one rule of the chapter's loop or
// of its failure semantics, and the same property that passes for the real loop must fail for it
// with a shrunk scenario and an error naming that rule. Mutants the focused tests' mutation check
// also plants come from scripts/lib/mutation/mutants.ts.
// One isolated target tree holds the mutants side by side, so one build serves them all; the
// checks then run in this process against each mutant's compiled module.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { loopProperty, propertyParameters } from "../../packages/pi-course/test/properties/loop-property.js";
import type { RunLoop } from "../../packages/pi-course/test/properties/run-scenario.js";
import type { Scenario } from "../../packages/pi-course/test/properties/scenario.js";
import { findCheckpoint } from "../lib/course/manifest.js";
import { diagnosticMutation } from "../lib/mutation/diagnostic.js";
import { loopMutants, type Mutant, mutatedFiles } from "../lib/mutation/mutants.js";
import { buildTree } from "../lib/run/focused-run.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";

const checkpoint = findCheckpoint("07");
const loopFile = checkpoint.teachingFiles[0] ?? "packages/pi-course/src/agent-loop.ts";

/** A mutant and the words of the rule the property must report broken for it. */
interface PropertyMutant extends Mutant {
  rule: RegExp;
}

/** Each `find` must occur exactly once in the loop, so a changed loop fails this check loudly. */
const only = (find: string, replace: string) => [{ file: loopFile, find, replace }];

const mutants: PropertyMutant[] = [
  {
    name: "length 的调用进入 executor（章节诊断）",
    mutations: [diagnosticMutation(checkpoint)],
    rule: /^the call t\d+c\d+ of a length turn was executed/,
  },
  {
    ...loopMutants.completionOrder,
    rule: /^result \d+ after assistant \d+ is t\d+c\d+'s, .*: results follow call order/,
  },
  { ...loopMutants.noPostBatchAbortCheck, rule: /prescribe that it resolves aborted after/ },
  { ...loopMutants.secondTurnEnd, rule: /^events follow turn_end: turn_end$/ },
  {
    name: "预取消检查返回 steps 而不是 steps - 1",
    mutations: only('return finish("aborted", steps - 1);', 'return finish("aborted", steps);'),
    rule: /^the run resolves aborted after \d+ step\(s\); .* prescribe that it resolves aborted after/,
  },
  {
    name: "直接使用调用者的 context.messages",
    mutations: only(
      "const messages = structuredClone(options.context.messages);",
      "const messages = options.context.messages;",
    ),
    // A run that appends nothing shows it as the caller's own messages in the transcript.
    rule: /^(the caller's context changed|a transcript message is the caller's)/,
  },
  {
    name: "结果之后的进度没有丢弃",
    mutations: only(
      'if (running) emit(options, { type: "tool_progress"',
      'if (running || !running) emit(options, { type: "tool_progress"',
    ),
    rule: /tool_progress/,
  },
  {
    name: "executor 的 rejection 没有转换成配对结果",
    mutations: only(
      '            const result = failedExecution(call, error);\n            emit(options, { type: "tool_end", result });\n            return result;\n',
      "            throw error;\n",
    ),
    rule: /^the run rejects with an error the model did not raise/,
  },
  {
    name: "模型违反协议时以 error assistant 结束而不是拒绝",
    mutations: only(
      "const assistant = await collectModelTurn(options, messages);",
      'const assistant = await collectModelTurn(options, messages).catch((error: unknown): AssistantMessage => ({ role: "assistant", content: [], stopReason: "error", timestamp: Date.now(), errorMessage: errorMessageOf(error) }));',
    ),
    rule: /^the run resolves error after \d+ step\(s\); .* prescribe that it rejects with the model's failure on request/,
  },
  {
    name: "模型违反协议时先发出 turn_end 再拒绝",
    mutations: only(
      "const assistant = await collectModelTurn(options, messages);",
      'const assistant = await collectModelTurn(options, messages).catch((error: unknown) => { emit(options, { type: "turn_end", reason: "error", steps }); throw error; });',
    ),
    rule: /^a rejected run emitted turn_end/,
  },
  {
    name: "模型违反协议时拒绝的不是模型自己的错误",
    mutations: only(
      "const assistant = await collectModelTurn(options, messages);",
      "const assistant = await collectModelTurn(options, messages).catch((error: unknown) => { throw new Error(errorMessageOf(error)); });",
    ),
    rule: /^the run rejects with an error the model did not raise: .* prescribe that it rejects with the model's failure/,
  },
];

/** The loop's source with the mutant's edits; every edit must be on the loop. */
function mutate(mutant: Mutant): string {
  for (const { file } of mutant.mutations) {
    assert.equal(file, loopFile, `mutant "${mutant.name}" edits ${file}, not the loop ${loopFile}`);
  }
  const mutated = mutatedFiles(mutant.mutations)[loopFile];
  assert.ok(mutated !== undefined, `mutant "${mutant.name}" has no edit`);
  return mutated;
}

const mutantFile = (index: number) => path.posix.join(path.posix.dirname(loopFile), `property-mutant-${index}.ts`);

let workDir = "";
let treeDir = "";

before(async () => {
  const files = Object.fromEntries(mutants.map((mutant, index) => [mutantFile(index), mutate(mutant)]));
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), "pi-property-mutants-"));
  treeDir = path.join(workDir, "target");
  await writeCheckpointTree(checkpoint, "target", treeDir, { files });
  const build = await buildTree(treeDir, checkpoint);
  assert.ok(build.ok, `the mutant tree does not build: ${build.firstError ?? build.output}`);
});

after(async () => {
  // fs.rm removes the tree's links to the main node_modules without following them.
  if (workDir !== "") await fs.rm(workDir, { recursive: true, force: true });
});

async function loopFrom(relativeTs: string): Promise<RunLoop> {
  const compiled = relativeTs.replace(/^(packages\/[^/]+)\/src\/(.*)\.ts$/, "$1/dist/src/$2.js");
  const module = (await import(pathToFileURL(path.join(treeDir, ...compiled.split("/"))).href)) as {
    runAgentLoop: RunLoop;
  };
  return module.runAgentLoop;
}

test("性质变异检查：树中未改动的 loop 通过同一组性质", async () => {
  const details = await fc.check(loopProperty(await loopFrom(loopFile)), { ...propertyParameters(), numRuns: 200 });
  assert.equal(details.failed, false, fc.defaultReportMessage(details) ?? "");
});

mutants.forEach((mutant, index) => {
  test(`性质变异检查：${mutant.name} 让性质失败，给出缩小后的反例并指出被破坏的规则`, async (t) => {
    const parameters = propertyParameters();
    const { seed } = parameters;
    const details = await fc.check(loopProperty(await loopFrom(mutantFile(index))), parameters);
    assert.equal(details.failed, true, `the property suite did not notice the mutant "${mutant.name}"`);
    const report = fc.defaultReportMessage(details) ?? "";
    // The report as a developer sees it, up to the error (its first line follows below).
    const lines = report.split("\n");
    const errorAt = lines.findIndex((line) => line.startsWith("Got "));
    for (const line of errorAt < 0 ? lines : lines.slice(0, errorAt)) t.diagnostic(line);
    assert.match(report, new RegExp(`seed: ${seed}`), "the failure report does not name the seed");
    const counterexample = details.counterexample?.[0] as Scenario | undefined;
    assert.ok(counterexample !== undefined && details.numShrinks > 0, "the counterexample was not shrunk");
    assert.ok(counterexample.turns.length <= 3, `the shrunk scenario is not small:${String(counterexample)}`);
    assert.match(report, /maxSteps \d+, /, "the counterexample is not printed as a readable scenario");
    assert.ok(details.errorInstance instanceof Error, "the failure carries no error naming the broken rule");
    const brokenRule = details.errorInstance.message.split("\n")[0] ?? "";
    t.diagnostic(`broken rule: ${brokenRule}`);
    assert.match(brokenRule, mutant.rule, `the property reported another rule than the one "${mutant.name}" breaks`);
  });
});
