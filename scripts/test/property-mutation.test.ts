// The property suite's own mutation check: each mutant breaks one rule of the chapter's loop,
// and the same property that passes for the real loop must fail for it with a shrunk scenario.
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
import { buildTree } from "../lib/focused-run.js";
import { findCheckpoint, repoRoot } from "../lib/manifest.js";
import { writeCheckpointTree } from "../lib/trees.js";

const checkpoint = findCheckpoint("07");
const loopFile = checkpoint.teachingFiles[0] ?? "packages/pi-course/src/agent-loop.ts";

interface Mutant {
  name: string;
  /** Each `find` must occur exactly once in the loop, so a changed loop fails this check loudly. */
  edits: [find: string, replace: string][];
}

const mutants: Mutant[] = [
  {
    name: "length 的调用进入 executor（章节诊断）",
    edits: [[checkpoint.diagnostic.find, checkpoint.diagnostic.replace]],
  },
  {
    name: "结果按完成顺序写入 transcript",
    edits: [
      ["  return Promise.all(\n", "  const completed: ToolResultMessage[] = [];\n  return Promise.all(\n"],
      [
        '      emit({ type: "tool_end", result });\n      return result;\n',
        '      emit({ type: "tool_end", result });\n      completed.push(result);\n      return result;\n',
      ],
      ["    }),\n  );\n}", "    }),\n  ).then(() => completed);\n}"],
    ],
  },
  {
    name: "缺少工具批次之后的取消检查",
    edits: [
      ['      if (options.signal?.aborted) return finish("aborted", steps);\n      continue;', "      continue;"],
    ],
  },
  {
    name: "预取消检查返回 steps 而不是 steps - 1",
    edits: [['return finish("aborted", steps - 1);', 'return finish("aborted", steps);']],
  },
  {
    name: "直接使用调用者的 context.messages",
    edits: [["const messages = copyMessages(options.context.messages);", "const messages = options.context.messages;"]],
  },
  {
    name: "结果之后的进度没有丢弃",
    edits: [['if (!settled) emit({ type: "tool_progress"', 'if (settled || !settled) emit({ type: "tool_progress"']],
  },
  {
    name: "executor 的 rejection 没有转换成配对结果",
    edits: [
      ["  } catch (error) {\n    return failedExecution(call, error);\n", "  } catch (error) {\n    throw error;\n"],
    ],
  },
];

function mutate(source: string, mutant: Mutant): string {
  return mutant.edits.reduce((text, [find, replace]) => {
    const count = text.split(find).length - 1;
    assert.equal(count, 1, `mutant "${mutant.name}": expected one occurrence in ${loopFile} of:\n${find}`);
    return text.replace(find, () => replace);
  }, source);
}

const mutantFile = (index: number) => path.posix.join(path.posix.dirname(loopFile), `property-mutant-${index}.ts`);

let workDir = "";
let treeDir = "";

before(async () => {
  const source = await fs.readFile(path.join(repoRoot, loopFile), "utf8");
  const files = Object.fromEntries(mutants.map((mutant, index) => [mutantFile(index), mutate(source, mutant)]));
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
  test(`性质变异检查：${mutant.name} 让性质失败，并给出缩小后的反例`, async (t) => {
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
    t.diagnostic(`broken rule: ${details.errorInstance.message.split("\n")[0]}`);
  });
});
