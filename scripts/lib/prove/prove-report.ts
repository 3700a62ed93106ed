// `checkpoint NN --prove`: every integrity check of one checkpoint, building what it needs (the
// previous target to compare the parent with, the previous practice directory to carry
// forward), with one line per check; a failure names the rule and the files to look at.
import { AssertionError } from "node:assert";
import { type Checkpoint, loadManifest } from "../course/manifest.js";
import { LearnerError } from "../usage-error.js";
import { integrityChecks } from "./integrity-checks.js";
import { ProveContext } from "./prove-context.js";

export async function proveReport(checkpoint: Checkpoint): Promise<string> {
  const started = performance.now();
  const context = await ProveContext.create();
  try {
    const checks = integrityChecks(checkpoint, context);
    const outcomes = await Promise.allSettled(checks.map((check) => check.run()));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const lines = checks.map((check, index) => {
      const outcome = outcomes[index];
      if (outcome?.status === "fulfilled") return `  ✓ ${check.name}`;
      return `  ✗ ${check.name}\n      ${failureLine(outcome?.reason)}\n      相关文件：${filesOf(checkpoint, index).join("、")}`;
    });
    const failed = outcomes.filter((outcome) => outcome.status === "rejected").length;
    const head = `检查点 ${checkpoint.id} 的完整性检查：${checks.length - failed}/${checks.length} 通过（${seconds} 秒）`;
    if (failed > 0) throw new LearnerError([head, ...lines].join("\n"));
    return [head, ...lines].join("\n");
  } finally {
    await context.dispose();
  }
}

function failureLine(reason: unknown): string {
  if (reason instanceof AssertionError) {
    const rule = reason.message.split("\n")[0] ?? "";
    const values = reason.operator === "fail" ? "" : `（实际 ${brief(reason.actual)}，期望 ${brief(reason.expected)}）`;
    return `${rule}${values}`;
  }
  if (reason instanceof Error) return reason.message.split("\n")[0] ?? "";
  return String(reason);
}

function brief(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** The files a failure of check `index` (in integrityChecks' order) most likely lies in. */
function filesOf(checkpoint: Checkpoint, index: number): string[] {
  const previous = loadManifest().checkpoints[loadManifest().checkpoints.indexOf(checkpoint) - 1];
  switch (index) {
    case 0:
      return [...checkpoint.teachingFiles, checkpoint.focusedTest];
    case 1:
      return [`packages/pi-course/checkpoints/${checkpoint.id}/before/`, "target.adds（清单）"];
    case 2:
      return [checkpoint.diagnostic.file, checkpoint.focusedTest];
    case 3:
      return [...Object.values(checkpoint.starters), checkpoint.focusedTest];
    default:
      return previous === undefined
        ? Object.values(checkpoint.starters)
        : [...previous.teachingFiles, ...Object.values(checkpoint.starters)];
  }
}
