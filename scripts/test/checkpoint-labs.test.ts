// The starter's labs, completed in order with code taken verbatim from the target, turn the
// focused tests green in order: 0 → 1 → 2 → 4 → 6 → 9, and the first red after lab N is
// lab N+1's temporary error. Every piece of code pasted below is checked to occur in the
// target, and every place it goes is checked to occur in the starter, so the check fails
// loudly when either file changes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint, labError, repoRoot } from "../lib/course/manifest.js";
import { buildTree, runFocused } from "../lib/run/focused-run.js";
import { withTempTree } from "../lib/trees/temp-tree.js";

const checkpoint = findCheckpoint("07");
const teaching = "packages/pi-course/src/agent-loop.ts";
const target = readFileSync(path.join(repoRoot, teaching), "utf8");
const starter = readFileSync(path.join(repoRoot, checkpoint.starters[teaching] ?? ""), "utf8");

type Fill =
  /** Replace the whole helper function with the target's. */
  | { fn: string }
  /** Replace the first `throw new Error("Lab …")` after the marker comment with target code. */
  | { throwAfter: string; code: string[] }
  /** Insert target code after the comment block that starts at the marker. */
  | { insertAfter: string; code: string[] }
  /** Delete the block statement that starts with `block` (a branch the finished lab makes redundant). */
  | { removeBlock: string };

const fills: Record<string, Fill[]> = {
  "7.1": [
    { fn: "collectModelTurn" },
    {
      insertAfter: "// Lab 7.1 ②",
      code: ["messages.push(assistant);", 'emit({ type: "assistant_message", message: assistant });'],
    },
    {
      insertAfter: "// Lab 7.1 ③",
      code: ['if (assistant.stopReason === "stop" && calls.length === 0) return finish("stop", steps);'],
    },
    {
      throwAfter: "// Lab 7.1 ④",
      code: ['emit({ type: "turn_end", reason, steps });', "return { reason, messages, steps };"],
    },
  ],
  "7.2": [
    { fn: "executeOne" },
    { throwAfter: "// Lab 7.2 ②③", code: [functionBody(target, "executeBatch")] },
    {
      throwAfter: "// Lab 7.2 ③",
      code: ["messages.push(...(await executeBatch(calls, executeToolCall, options.signal, emit)));"],
    },
    { insertAfter: "// Lab 7.2 ④", code: ["continue;"] },
  ],
  "7.3": [
    { fn: "skippedCall" },
    {
      throwAfter: "// Lab 7.3 ①–⑤",
      code: [
        'if (assistant.stopReason === "toolUse") return finish("error", steps);',
        [
          'const skipReason = assistant.stopReason === "stop" ? "unexpected-stop" : assistant.stopReason;',
          "    for (const call of calls) {",
          "      const result = skippedCall(call, skipReason);",
          "      messages.push(result);",
          '      emit({ type: "tool_skipped", result });',
          "    }",
          '    return finish(skipReason === "unexpected-stop" ? "error" : skipReason, steps);',
        ].join("\n"),
      ],
    },
  ],
  "7.4": [{ fn: "failedExecution" }, { removeBlock: "if (calls.length > 1) {" }],
  "7.5": [
    { throwAfter: "// Lab 7.5 ①", code: ['return finish("aborted", steps - 1);'] },
    { insertAfter: "// Lab 7.5 ②", code: ['if (options.signal?.aborted) return finish("aborted", steps);'] },
    { throwAfter: "// Lab 7.5 ③", code: ['return finish("maxSteps", maxSteps);'] },
  ],
};

function indexOnce(text: string, needle: string, what: string): number {
  const first = text.indexOf(needle);
  assert.notEqual(first, -1, `${what}: "${needle}" 不在文件中`);
  assert.equal(text.indexOf(needle, first + 1), -1, `${what}: "${needle}" 出现不止一次`);
  return first;
}

/** Start and end (exclusive, after the closing brace) of the block that opens at the first `{` from `start`. */
function blockRange(text: string, start: number): [number, number] {
  let depth = 0;
  for (let i = text.indexOf("{", start); i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    if (text[i] === "}" && --depth === 0) return [start, i + 1];
  }
  throw new Error("unbalanced braces");
}

/** The whole declaration of the top-level function `name`, from `function`/`async` to its closing brace. */
function functionText(text: string, name: string): string {
  const match = new RegExp(`^(async )?function ${name}\\(`, "m").exec(text);
  assert.ok(match, `function ${name} 不在文件中`);
  // The body opens at the first "{" that ends a line: parameter lists and return types hold none.
  const [, end] = blockRange(text, text.indexOf("{\n", match.index));
  return text.slice(match.index, end);
}

function functionBody(text: string, name: string): string {
  const whole = functionText(text, name);
  return whole.slice(whole.indexOf("{\n") + 2, whole.lastIndexOf("\n}")).trim();
}

function lineStart(text: string, index: number): number {
  return text.lastIndexOf("\n", index) + 1;
}

function indentAt(text: string, index: number): string {
  return /^\s*/.exec(text.slice(lineStart(text, index)))?.[0] ?? "";
}

function applyFill(text: string, lab: string, fill: Fill): string {
  if ("fn" in fill) {
    const replacement = functionText(target, fill.fn);
    const original = functionText(text, fill.fn);
    return text.replace(original, () => replacement);
  }
  if ("removeBlock" in fill) {
    const start = indexOnce(text, fill.removeBlock, `Lab ${lab}`);
    const [, end] = blockRange(text, start);
    return text.slice(0, lineStart(text, start)) + text.slice(end + 1);
  }
  for (const piece of fill.code) assert.ok(target.includes(piece), `Lab ${lab}：粘贴的代码来自 target：${piece}`);
  if ("throwAfter" in fill) {
    const marker = indexOnce(text, fill.throwAfter, `Lab ${lab}`);
    const statement = `throw new Error("${labError(labOf(lab))}");`;
    const at = text.indexOf(statement, marker);
    assert.notEqual(at, -1, `Lab ${lab}：${fill.throwAfter} 之后没有临时错误`);
    const indent = indentAt(text, at);
    return text.slice(0, at) + fill.code.join(`\n${indent}`) + text.slice(at + statement.length);
  }
  const marker = indexOnce(text, fill.insertAfter, `Lab ${lab}`);
  const indent = indentAt(text, marker);
  let end = text.indexOf("\n", marker);
  while (text.slice(end + 1).startsWith(`${indent}//`)) end = text.indexOf("\n", end + 1);
  return `${text.slice(0, end + 1)}${fill.code.map((line) => `${indent}${line}\n`).join("")}${text.slice(end + 1)}`;
}

function labOf(id: string) {
  const lab = checkpoint.labs.find((candidate) => candidate.id === id);
  assert.ok(lab, `清单里有 Lab ${id}`);
  return lab;
}

/** Builds the practice tree with `source` as the teaching file and runs all focused tests. */
function runWithTeachingFile(source: string, label: string) {
  return withTempTree(checkpoint, "practice", { [teaching]: source }, async (dir) => {
    const build = await buildTree(dir, checkpoint);
    assert.ok(build.ok, `${label} 之后可以构建：${build.firstError}`);
    return runFocused(dir, checkpoint);
  });
}

test("按顺序完成 Lab（代码逐字取自 target）：聚焦测试依次 1、2、4、6、9 项通过，之后的第一次红灯是下一段 Lab 的临时错误", async () => {
  assert.deepEqual(
    Object.keys(fills),
    checkpoint.labs.map((lab) => lab.id),
    "每段 Lab 都有填充",
  );
  const stages: string[] = [];
  let source = starter;
  for (const lab of checkpoint.labs) {
    for (const fill of fills[lab.id] ?? []) source = applyFill(source, lab.id, fill);
    assert.doesNotMatch(
      source,
      new RegExp(`Lab ${lab.id.replace(".", "\\.")} [^"]* 尚未实现`),
      `Lab ${lab.id} 的临时错误都已删除`,
    );
    stages.push(source);
  }
  // The stages are independent trees: build and run them side by side.
  const results = await Promise.all(stages.map((stage, index) => runWithTeachingFile(stage, `Lab ${index + 1}`)));

  let expectedPass = 0;
  for (const [index, lab] of checkpoint.labs.entries()) {
    const result = results[index];
    assert.ok(result);
    expectedPass += lab.expected;
    assert.equal(result.pass, expectedPass, `Lab ${lab.id} 之后 ${expectedPass}/9`);
    const done = checkpoint.labs.slice(0, index + 1).map((finished) => finished.pattern);
    for (const outcome of result.results) {
      const finished = done.some((pattern) => outcome.name.includes(pattern));
      assert.equal(outcome.status, finished ? "pass" : "fail", `Lab ${lab.id} 之后：${outcome.name}`);
    }
    const next = checkpoint.labs[index + 1];
    if (next !== undefined) assert.equal(result.firstFailure?.error, labError(next), `Lab ${lab.id} 之后的第一次红灯`);
    else assert.equal(result.fail, 0);
  }
  assert.equal(expectedPass, 9);
});
