// tiny-pi's start line names what runs: a one-shot run (-p, --mode json, a prompt without a REPL)
// drives the loop turn by turn, so no Agent is named; the REPL drives chapter 09's Agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type LearnerRun, runtimeParts } from "../src/cli/learner-code.js";
import { runtimeLine } from "../src/cli/runtime-line.js";

const fromPractice13: LearnerRun = {
  code: {},
  dirs: new Map(["07", "08", "09", "10", "11", "12", "13"].map((id) => [id, "practice/13"])),
  reference: new Set(),
};

test("tiny-pi 的开头一行：一次性的运行（-p、--mode json）驱动的是 loop，不列 Agent；REPL 列出驱动它的 Agent", () => {
  const oneShot = runtimeLine({ parts: runtimeParts(fromPractice13, ["read"], false, false) });
  assert.doesNotMatch(oneShot, /Agent（09）/, `一次性的运行没有 Agent：${oneShot}`);
  assert.match(oneShot, /loop（07）runAgentLoop/, "一次性的运行列出它驱动的 loop");
  const repl = runtimeLine({ parts: runtimeParts(fromPractice13, ["read"], false, true), typedLines: "steer" });
  assert.match(repl, /Agent（09）Agent/, "REPL 由 Agent 驱动，列出它");

  const agentOnly: LearnerRun = { code: {}, dirs: new Map([["09", "practice/09"]]), reference: new Set() };
  const parts = runtimeParts(agentOnly, ["read"], false, false);
  assert.deepEqual(
    parts.find((part) => part.label === "loop"),
    { label: "loop", chapter: "07", what: "runAgentLoop", dir: "practice/09" },
    "只有第 09 章的代码时，一次性的运行驱动的是那个 Agent 的 loop：它是你的",
  );
});

test("tiny-pi 的开头一行按章说出谁的代码：练习目录的记录说是课程参考实现的章，不说成你的", () => {
  // practice/13 started at 10 without --from: chapters 07–09 in it are the course's reference.
  const startedAt10: LearnerRun = { ...fromPractice13, reference: new Set(["07", "08", "09"]) };
  const line = runtimeLine({ parts: runtimeParts(startedAt10, ["read"], false, true) });
  assert.doesNotMatch(line, /全部是/, `不是全部都是你写的：${line}`);
  assert.equal(
    line,
    "practice/13 里你写的：会话（10）JsonlSessionStore、压缩（11）buildContext、资源（12）discoverResources、Runtime（13）openRuntime；" +
      "课程的参考实现（建练习目录时带进来的）：loop（07）runAgentLoop、工具（08）read、Agent（09）Agent",
    "你写的章与课程的参考实现分开列出",
  );
  const allYours = runtimeLine({ parts: runtimeParts(fromPractice13, ["read"], false, true) });
  assert.match(allYours, /^全部是 practice\/13 里你自己写的代码：/, "从第 00 章一路带过来：全部是你的");

  const twoTrees: LearnerRun = {
    code: {},
    dirs: new Map([
      ["07", "practice/07"],
      ["08", "practice/08"],
    ]),
    reference: new Set(["07"]),
  };
  const mixed = runtimeLine({ parts: runtimeParts(twoTrees, ["read"], false, false) });
  assert.match(mixed, /loop（07）：practice\/07 里课程的参考实现 runAgentLoop/, `记录说是参考实现的那一章：${mixed}`);
  assert.match(mixed, /工具（08）：practice\/08 里你的 read/, "你的那一章仍说是你的");
});
