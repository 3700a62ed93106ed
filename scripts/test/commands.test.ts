import assert from "node:assert/strict";
import { test } from "node:test";
import { practiceArgs, practiceCommand } from "../lib/commands.js";
import { findCheckpoint } from "../lib/course/manifest.js";

test("练习命令：显示的命令与运行时用的参数数组是同一份（目录含空格时仍是一个参数）", () => {
  const checkpoint = findCheckpoint("07");
  assert.deepEqual(practiceArgs(checkpoint), ["run", "practice", "-w", "@pi/course", "--", "07"]);
  assert.equal(practiceCommand(checkpoint), "npm run practice -w @pi/course -- 07");
  const dir = "/tmp/my work/07";
  assert.deepEqual(practiceArgs(checkpoint, dir).at(-1), dir);
  assert.equal(practiceCommand(checkpoint, dir), `npm run practice -w @pi/course -- 07 ${dir}`);
});
