// The chapter's code, typed into the starter lab by lab the way the chapter and the starter's
// comments show it, turns the focused tests green in order: 1 → 2 → 4 → 6 → 9, and the first red
// after lab N is lab N+1's temporary error. The snippets below are the chapter's code as printed
// (`readCall` becomes the loop's `call`); every place they go is a line of the starter, found
// exactly once, so the check fails loudly when the starter stops matching the chapter.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint, labError, repoRoot } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { mutateSource } from "../lib/mutation/mutants.js";
import { buildTree, runFocused } from "../lib/run/focused-run.js";
import { withTempTree } from "../lib/trees/temp-tree.js";

const checkpoint = findCheckpoint("07");
const teaching = "packages/pi-course/src/agent-loop.ts";
// Chapter 07's target: the live file as later checkpoints leave it, walked back to 07.
const target = targetFiles(checkpoint).get(teaching) ?? "";
const starter = readFileSync(path.join(repoRoot, checkpoint.starters[teaching] ?? ""), "utf8");

/** The chapter's first model request and event loop, as printed. */
const chapterRequest = [
  "const stream = options.model.stream(",
  "    {",
  "      systemPrompt: options.context.systemPrompt,",
  "      messages,",
  "      tools: options.tools.definitions(),",
  "    },",
  "    { signal: options.signal },",
  "  );",
].join("\n");
const chapterForAwait = [
  "for await (const event of stream) {",
  '    emit(options, { type: "model_event", event });',
  "  }",
].join("\n");

/** Lab 7.2's one call, written as the starter says (for…of, since calls[0] may be undefined). */
const singleCall = [
  "for (const call of calls) {",
  '        emit(options, { type: "tool_start", call });',
  "        const result = await executeOne(call);",
  '        emit(options, { type: "tool_end", result });',
  "        messages.push(result);",
  "      }",
].join("\n");

/** The chapter's code blocks that the target must show as they are printed. */
const chapterShapes = [
  "const messages = structuredClone(options.context.messages);",
  chapterRequest,
  chapterForAwait,
  ["messages.push(assistant);", '    emit(options, { type: "assistant_message", message: assistant });'].join("\n"),
  "for (let steps = 1; steps <= maxSteps; steps += 1) {",
  'return finish("aborted", steps - 1);',
  [
    "const results = await Promise.all(",
    "        calls.map(async (call) => {",
    "          try {",
    "            const result = await executeOne(call);",
    '            emit(options, { type: "tool_end", result });',
    "            return result;",
  ].join("\n"),
  "const executeToolCall: ToolExecutor =",
  'const finish = (reason: AgentRunResult["reason"], steps: number): AgentRunResult => {',
  'emit(options, { type: "turn_end", reason, steps });',
];

test("target 使用章节的名字与调用形状：emit(options, event)、executeOne(call)、批次里的 tool_end、structuredClone、请求对象与 finish(reason, steps)", () => {
  for (const shape of chapterShapes) assert.ok(target.includes(shape), `target 里有章节的代码：\n${shape}`);
  assert.doesNotMatch(target, /\bemit\(\{/, "emit 总是接收 (options, event)");
  assert.match(target, /const executeOne = (async )?\(call: ToolCall\)/, "executeOne 只接收 call");
  assert.equal(
    target.match(/emit\(options, \{ type: "tool_end"/g)?.length,
    2,
    "tool_end 只在批次的 async 函数里发出（成功与 catch 各一处）",
  );
});

/** One edit of the learner: `find` (a line of the starter, or of code typed earlier) becomes `replace`. */
interface Typing {
  find: string;
  replace: string;
}

const labThrow = (id: string) => {
  const lab = checkpoint.labs.find((candidate) => candidate.id === id);
  assert.ok(lab, `清单里有 Lab ${id}`);
  return `throw new Error("${labError(lab)}");`;
};

/** Replaces the first temporary error of `id` after the comment `marker` with `code`. */
function afterMarker(source: string, marker: string, id: string, code: string): string {
  const at = source.indexOf(marker);
  assert.notEqual(at, -1, `starter 里有 ${marker}`);
  assert.equal(source.indexOf(marker, at + 1), -1, `${marker} 只出现一次`);
  const statement = labThrow(id);
  const throwAt = source.indexOf(statement, at);
  assert.notEqual(throwAt, -1, `${marker} 之后有 Lab ${id} 的临时错误`);
  return source.slice(0, throwAt) + code + source.slice(throwAt + statement.length);
}

/** Each lab: the temporary errors it replaces (marker → chapter code), then plain edits. */
const labs: Record<string, { fills: [marker: string, code: string][]; edits?: Typing[] }> = {
  "7.1": {
    fills: [
      [
        "// Lab 7.1 ④",
        ['emit(options, { type: "turn_end", reason, steps });', "    return { reason, messages, steps };"].join("\n"),
      ],
      ["// Lab 7.1 ①", `${chapterRequest}\n  ${chapterForAwait}\n  return stream.result();`],
    ],
    edits: [
      {
        find: "    const calls = assistant.content.filter(",
        replace: [
          "    messages.push(assistant);",
          '    emit(options, { type: "assistant_message", message: assistant });',
          "    const calls = assistant.content.filter(",
        ].join("\n"),
      },
      {
        find: "    // Lab 7.3 ②–⑤",
        replace: [
          '    if (assistant.stopReason === "stop" && calls.length === 0) return finish("stop", steps);',
          "    // Lab 7.3 ②–⑤",
        ].join("\n"),
      },
    ],
  },
  "7.2": {
    fills: [
      [
        "// Lab 7.2 ②",
        [
          "return await executeToolCall(call, {",
          "      signal: options.signal,",
          "      reportProgress: (content) => {",
          "        emit(options, {",
          '          type: "tool_progress",',
          "          callId: call.id,",
          "          content,",
          "        });",
          "      },",
          "    });",
        ].join("\n"),
      ],
      ["// Lab 7.2 ③", `${singleCall}\n      continue;`],
    ],
  },
  "7.3": {
    fills: [
      [
        "// Lab 7.3 ①",
        [
          "return {",
          '    role: "toolResult",',
          "    toolCallId: call.id,",
          "    toolName: call.name,",
          "    content: [text(SKIPPED_TEXT[reason])],",
          "    details: { skipped: true, reason },",
          "    isError: true,",
          "    timestamp: Date.now(),",
          "  };",
        ].join("\n"),
      ],
      [
        "// Lab 7.3 ②–⑤",
        [
          'if (assistant.stopReason === "toolUse") return finish("error", steps);',
          '    const reason = assistant.stopReason === "stop" ? "unexpected-stop" : assistant.stopReason;',
          "    for (const call of calls) {",
          "      const result = skippedCall(call, reason);",
          "      messages.push(result);",
          '      emit(options, { type: "tool_skipped", result });',
          "    }",
          '    return finish(reason === "unexpected-stop" ? "error" : reason, steps);',
        ].join("\n"),
      ],
    ],
  },
  "7.4": {
    fills: [
      [
        "// Lab 7.4 ③",
        [
          "return {",
          '    role: "toolResult",',
          "    toolCallId: call.id,",
          "    toolName: call.name,",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the chapter's code, as source text
          "    content: [text(`Tool execution failed: ${errorMessageOf(error)}`)],",
          "    isError: true,",
          "    timestamp: Date.now(),",
          "  };",
        ].join("\n"),
      ],
    ],
    edits: [
      // "删除这个 `if (calls.length > 1)` 分支": the removal is checked below to leave no Lab 7.4 error.
      { find: "      if (calls.length > 1) {\n", replace: "      if (false) {\n" },
      {
        find: singleCall,
        replace: [
          'for (const call of calls) emit(options, { type: "tool_start", call });',
          "      const results = await Promise.all(",
          "        calls.map(async (call) => {",
          "          try {",
          "            const result = await executeOne(call);",
          '            emit(options, { type: "tool_end", result });',
          "            return result;",
          "          } catch (error) {",
          "            const result = failedExecution(call, error);",
          '            emit(options, { type: "tool_end", result });',
          "            return result;",
          "          }",
          "        }),",
          "      );",
          "      messages.push(...results);",
        ].join("\n"),
      },
    ],
  },
  "7.5": {
    fills: [
      ["// Lab 7.5 ①", 'return finish("aborted", steps - 1);'],
      ["// Lab 7.5 ③", 'return finish("maxSteps", maxSteps);'],
    ],
    edits: [
      {
        find: "      continue;\n",
        replace: '      if (options.signal?.aborted) return finish("aborted", steps);\n      continue;\n',
      },
    ],
  },
};

/** Deletes the whole `if (false) { … }` block left where the learner removes the 7.4 branch. */
function withoutDeadBranch(source: string): string {
  const start = source.indexOf("      if (false) {\n");
  if (start === -1) return source;
  let depth = 0;
  for (let i = source.indexOf("{", start); i < source.length; i += 1) {
    if (source[i] === "{") depth += 1;
    if (source[i] === "}" && --depth === 0) return source.slice(0, start) + source.slice(i + 2);
  }
  throw new Error("unbalanced braces");
}

function typeLab(source: string, id: string): string {
  const lab = labs[id];
  assert.ok(lab, `Lab ${id} 有章节代码`);
  let typed = source;
  for (const [marker, code] of lab.fills) typed = afterMarker(typed, marker, id, code);
  for (const edit of lab.edits ?? []) typed = mutateSource(typed, { file: teaching, ...edit });
  return withoutDeadBranch(typed);
}

test("按章节的代码逐段完成 starter：聚焦测试依次 1、2、4、6、9 项通过，之后的第一次红灯是下一段 Lab 的临时错误", async () => {
  assert.deepEqual(
    Object.keys(labs),
    checkpoint.labs.map((lab) => lab.id),
    "每段 Lab 都有章节代码",
  );
  const stages: string[] = [];
  let source = starter;
  for (const lab of checkpoint.labs) {
    source = typeLab(source, lab.id);
    assert.ok(!source.includes(labError(lab)), `Lab ${lab.id} 的临时错误都已删除`);
    stages.push(source);
  }
  // The stages are independent trees: build and run them side by side.
  const results = await Promise.all(
    stages.map((stage, index) =>
      withTempTree(checkpoint, "practice", { [teaching]: stage }, async (dir) => {
        const build = await buildTree(dir, checkpoint);
        assert.ok(build.ok, `Lab ${checkpoint.labs[index]?.id} 之后可以构建：${build.firstError}`);
        return runFocused(dir, checkpoint);
      }),
    ),
  );

  let expectedPass = 0;
  for (const [index, lab] of checkpoint.labs.entries()) {
    const result = results[index];
    assert.ok(result);
    expectedPass += lab.expected;
    assert.equal(result.pass, expectedPass, `Lab ${lab.id} 之后 ${expectedPass}/9：\n${result.output.slice(-3000)}`);
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
