// tiny-pi's start line names what runs: a one-shot run (-p, --mode json, a prompt without a REPL)
// drives the loop turn by turn, so no Agent is named; the REPL drives chapter 09's Agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type LearnerRun, runtimeParts } from "../src/cli/learner-code.js";
import { runtimeLine } from "../src/cli/runtime-line.js";

const fromPractice13: LearnerRun = {
  code: {},
  dirs: new Map(["07", "08", "09", "10", "11", "12", "13"].map((id) => [id, "practice/13"])),
};

test("tiny-pi 的开头一行：一次性的运行（-p、--mode json）驱动的是 loop，不列 Agent；REPL 列出驱动它的 Agent", () => {
  const oneShot = runtimeLine({ parts: runtimeParts(fromPractice13, ["read"], false, false) });
  assert.doesNotMatch(oneShot, /Agent Agent|Agent：/, `一次性的运行没有 Agent：${oneShot}`);
  assert.match(oneShot, /loop runAgentLoop/, "一次性的运行列出它驱动的 loop");
  const repl = runtimeLine({ parts: runtimeParts(fromPractice13, ["read"], false, true), typedLines: "steer" });
  assert.match(repl, /Agent Agent/, "REPL 由 Agent 驱动，列出它");

  const agentOnly: LearnerRun = { code: {}, dirs: new Map([["09", "practice/09"]]) };
  const parts = runtimeParts(agentOnly, ["read"], false, false);
  assert.deepEqual(
    parts.find((part) => part.label === "loop"),
    { label: "loop", what: "runAgentLoop", dir: "practice/09" },
    "只有第 09 章的代码时，一次性的运行驱动的是那个 Agent 的 loop：它是你的",
  );
});
