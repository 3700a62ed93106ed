// The chapter's diagnostic experiment, run for real: the manifest's one-line change to the
// target (for 07: the `length` branch sent down the execution path), built in a temp tree.

import type { Checkpoint } from "../course/manifest.js";
import type { FocusedResult } from "../run/focused-run.js";
import { type Mutation, mutatedFiles, runTargetWith } from "./mutants.js";

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

export async function runDiagnostic(checkpoint: Checkpoint): Promise<DiagnosticOutcome> {
  const mutated = await runTargetWith(checkpoint, mutatedFiles([diagnosticMutation(checkpoint)]));
  const restored = await runTargetWith(checkpoint, {});
  return { mutated, restored };
}

/** The tests of a run whose name contains `pattern`, with their status. */
function testsMatching(result: FocusedResult, pattern: string): FocusedResult["results"] {
  return result.results.filter((test) => test.name.includes(pattern));
}

export function diagnosticReport(checkpoint: Checkpoint, outcome: DiagnosticOutcome): string {
  const { pattern } = checkpoint.diagnostic;
  const lines = [
    checkpoint.diagnostic.title,
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
