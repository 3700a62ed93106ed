// The chapter's diagnostic experiment, run for real: the manifest's one-line change to the
// target (for 07: the `length` branch sent down the execution path), built in a temp tree.

import fs from "node:fs/promises";
import path from "node:path";
import { diagnosticCommand } from "../commands.js";
import type { Checkpoint } from "../course/manifest.js";
import { targetFiles } from "../course/snapshots.js";
import { buildTree, type FocusedResult, runFocused } from "../run/focused-run.js";
import { withTempTree } from "../trees/temp-tree.js";
import { LearnerError } from "../usage-error.js";
import { type Mutation, mutatedFiles } from "./mutants.js";

export function diagnosticMutation(checkpoint: Checkpoint): Mutation {
  const { file, find, replace } = checkpoint.diagnostic;
  return { file, find, replace };
}

export interface DiagnosticOutcome {
  /** All focused tests with the diagnostic change. */
  mutated: FocusedResult;
  /** All focused tests of the unchanged target. */
  restored: FocusedResult;
}

/** The checkpoint's target file with the diagnostic change (throws when `find` no longer occurs exactly once). */
export function diagnosticSource(checkpoint: Checkpoint): string {
  const target = targetFiles(checkpoint);
  const mutation = diagnosticMutation(checkpoint);
  return mutatedFiles([mutation], (file) => target.get(file) ?? "")[mutation.file] ?? "";
}

/**
 * Plants the diagnostic change in a target tree, builds it and runs the focused tests, then puts
 * the target's file back, rebuilds and runs them again. The tree is `builtTarget` when given
 * (left as it was found), else a temporary one.
 */
export async function runDiagnostic(checkpoint: Checkpoint, builtTarget?: string): Promise<DiagnosticOutcome> {
  const { file } = checkpoint.diagnostic;
  const original = targetFiles(checkpoint).get(file) ?? "";
  const experiment = async (dir: string): Promise<DiagnosticOutcome> => {
    const where = path.join(dir, ...file.split("/"));
    await fs.writeFile(where, diagnosticSource(checkpoint));
    try {
      const mutated = await buildAndRun(dir, checkpoint);
      await fs.writeFile(where, original);
      return { mutated, restored: await buildAndRun(dir, checkpoint) };
    } finally {
      await fs.writeFile(where, original);
    }
  };
  if (builtTarget !== undefined) return experiment(builtTarget);
  return withTempTree(checkpoint, "target", {}, experiment);
}

async function buildAndRun(dir: string, checkpoint: Checkpoint): Promise<FocusedResult> {
  const build = await buildTree(dir, checkpoint);
  if (!build.ok)
    throw new LearnerError(
      `诊断改动后的 target 无法构建（${checkpoint.diagnostic.file}）：${build.firstError ?? "构建失败"}`,
    );
  return runFocused(dir, checkpoint);
}

/** The tests of a run whose name contains `pattern`, with their status. */
function testsMatching(result: FocusedResult, pattern: string): FocusedResult["results"] {
  return result.results.filter((test) => test.name.includes(pattern));
}

export function diagnosticReport(checkpoint: Checkpoint, outcome: DiagnosticOutcome): string {
  const { pattern } = checkpoint.diagnostic;
  const lines = [
    `${checkpoint.diagnostic.title}（${diagnosticCommand(checkpoint)}）`,
    checkpoint.diagnostic.description,
    "",
    `改动（${checkpoint.diagnostic.file}）：`,
    `- ${checkpoint.diagnostic.find.trim()}`,
    `+ ${checkpoint.diagnostic.replace.trim()}`,
    "",
    "改动后的聚焦测试：",
    ...outcome.mutated.results.map((test) => `  ${test.status === "pass" ? "✓" : "✗"} ${test.name}`),
    `  通过 ${outcome.mutated.pass}/${outcome.mutated.tests}；名称含“${pattern}”的失败 ${
      testsMatching(outcome.mutated, pattern).filter((test) => test.status === "fail").length
    } 项`,
  ];
  if (outcome.mutated.firstFailure !== undefined) lines.push(`  第一处差异：${outcome.mutated.firstFailure.error}`);
  const restored = testsMatching(outcome.restored, pattern);
  lines.push(
    "",
    `恢复 target 后：名称含“${pattern}”的测试 ${restored.filter((test) => test.status === "pass").length}/${restored.length} 通过，全部 ${outcome.restored.pass}/${outcome.restored.tests}`,
  );
  return lines.join("\n");
}
