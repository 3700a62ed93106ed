// The check every planted-mistake suite makes of verify: it sends the learner to the mistake's lab,
// its first failure and its printout carry the broken rule (and the diff lines, where the failure
// is an equality; chapter 08's assert.ok failures are printed as 实际值 instead), and that lab's hint speaks of the same rule.
import assert from "node:assert/strict";
import type { Checkpoint } from "../../lib/course/manifest.js";
import { plainStyle } from "../../lib/terminal-style.js";
import { nextLab, type Verification } from "../../lib/verify/verify-labs.js";
import { formatVerification } from "../../lib/verify/verify-report.js";

export interface RuleMistake {
  name: string;
  /** The lab verify must send the learner to. */
  lab: string;
  /** The rule, in the focused test's words, that the first failure must name (and the hint too). */
  rule: string;
  /** A diff line verify must show, where the failure is an equality. */
  diff?: RegExp;
}

export function assertVerifyNamesRule(
  verification: Verification,
  mistake: RuleMistake,
  checkpoint: Checkpoint,
  dir: string,
  { everyDiffLine = true }: { everyDiffLine?: boolean } = {},
): void {
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
  const printed = formatVerification(verification, { checkpoint, dir, style: plainStyle });
  const shown = printed.slice(printed.indexOf("第一条失败："));
  assert.ok(shown.split("\n").slice(0, 2).join("\n").includes(mistake.rule), `${mistake.name}：verify 打印规则`);
  if (everyDiffLine) {
    for (const line of failure.diff) assert.ok(shown.includes(line), `${mistake.name}：verify 打印差异行 ${line}`);
  }
  assert.ok(next?.lab.hint.includes(mistake.rule), `${mistake.name}：Lab ${mistake.lab} 的提示讲到“${mistake.rule}”`);
}
