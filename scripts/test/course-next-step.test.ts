// `npm run course`'s last line: where a learner goes on from, whatever checkpoint they started at.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { nextStepLine } from "../lib/cli/course-list.js";
import { findCheckpoint, loadManifest } from "../lib/course/manifest.js";
import type { CheckpointProgress } from "../lib/verify/course-progress.js";

const from = path.resolve("/learner/pi-course");
const dir = (id: string) => path.join(from, "practice", id);
const notStarted = (id: string): CheckpointProgress => ({ checkpoint: findCheckpoint(id), state: "not-started" });
const labs = (id: string, done: number): CheckpointProgress => {
  const checkpoint = findCheckpoint(id);
  return { checkpoint, state: "labs", dir: dir(id), done, total: checkpoint.labs.length };
};
const finished = (id: string) => labs(id, findCheckpoint(id).labs.length);

test("course 下一步：从 07 开始并完成 07 的学习者被带到 08（带上 --from practice/07），而不是回到 06", () => {
  const line = nextStepLine([notStarted("06"), finished("07"), notStarted("08"), notStarted("09")], from);
  assert.equal(line, "下一步：npm run practice -w @pi/course -- 08 --from practice/07");
});

test("course 下一步：正在做的检查点没完成时继续 verify 它；什么都没开始时从第一个检查点开始", () => {
  assert.equal(
    nextStepLine([finished("06"), labs("07", 2), notStarted("08"), notStarted("09")], from),
    "下一步：npm run verify -w @pi/course -- 07 practice/07",
  );
  assert.equal(
    nextStepLine(["06", "07", "08", "09"].map(notStarted), from),
    "下一步：npm run practice -w @pi/course -- 06",
  );
});

test("course 下一步：最远的检查点之后都完成了，就回到仍未完成的那一个；全部完成时这样说", () => {
  assert.equal(
    nextStepLine([notStarted("06"), finished("07"), finished("08"), finished("09")], from),
    "下一步：npm run practice -w @pi/course -- 06",
  );
  assert.equal(nextStepLine(["06", "07", "08", "09"].map(finished), from), "全部检查点都已完成。");
});

test("course 下一步：整个课程都未开始时，新学习者被带到第一个检查点 00；完成 04 的学习者被带到下一章（带上 --from practice/04）", () => {
  const course = loadManifest().checkpoints.map((checkpoint) => checkpoint.id);
  assert.equal(course[0], "00", "课程从 00 开始");
  assert.equal(
    nextStepLine(course.map(notStarted), from),
    "下一步：npm run practice -w @pi/course -- 00",
    "新学习者从 00 开始",
  );
  const afterFour = course.map((id) => (id <= "04" ? finished(id) : notStarted(id)));
  const next = course[course.indexOf("04") + 1];
  assert.equal(
    nextStepLine(afterFour, from),
    `下一步：npm run practice -w @pi/course -- ${next} --from practice/04`,
    "做完 00–04 的学习者带着自己的代码进入下一章",
  );
});
