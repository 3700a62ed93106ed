// What `npm run checkpoint` prints: the list of checkpoints and one checkpoint's card.
import {
  checkpointCommand,
  diagnosticCommand,
  focusedCommand,
  labNotation,
  practiceCommand,
  verifyCommand,
} from "../commands.js";
import { type Checkpoint, focusedTestCount, loadManifest } from "../course/manifest.js";
import { beforeFolder, changedFiles } from "../course/snapshots.js";
import { displayWidth, padDisplay } from "../terminal-style.js";

export function checkpointCard(checkpoint: Checkpoint): string {
  const starters = Object.entries(checkpoint.starters).map(([teaching, starter]) => `${teaching} ← ${starter}`);
  const labWidth = Math.max(...checkpoint.labs.map((lab) => displayWidth(lab.pattern)));
  const lines = [
    `Checkpoint ${checkpoint.id} · ${checkpoint.title}`,
    `章节：${checkpoint.chapter}`,
    `模式：${checkpoint.mode}`,
    "",
    ...(checkpoint.guide === undefined ? [] : [`章节指南：${checkpoint.guide}`]),
    "",
    `parent：${checkpoint.parent.description}`,
    ...parentLines(checkpoint),
    `target：${checkpoint.target.description}`,
    "  parent +",
    ...checkpoint.target.adds.map((entry) => `  ${entry}`),
    ...changedLines(checkpoint),
    "",
    `教学文件：${checkpoint.teachingFiles.join("、")}`,
    `学习脚手架（starter）：${starters.join("；")}`,
    `聚焦测试：${checkpoint.focusedTest}（${focusedTestCount(checkpoint)} 项）`,
    "",
    `构建：${checkpoint.build}`,
    `聚焦运行：${focusedCommand(checkpoint)}`,
    `第一次红灯：${checkpoint.firstRed}`,
    "",
    "Lab：",
    ...checkpoint.labs.map(
      (lab) =>
        `  ${lab.id}  ${padDisplay(`"${lab.pattern}"`, labWidth + 2)}  ${lab.expected} 项  实践 ${lab.id} · ${lab.practice}`,
    ),
    "",
    `诊断：${checkpoint.diagnostic.title}（${diagnosticCommand(checkpoint)}）`,
    "",
    `练习目录：${practiceCommand(checkpoint)} [目录] [--from <上一章的练习目录>]`,
    `Lab 进度与提示：${verifyCommand(checkpoint)} [目录] [--watch]`,
    `卡住时看某段 Lab 的改动：${checkpointCommand(checkpoint, `--lab ${labNotation(checkpoint)}`)}`,
    `starter → target 的 diff：${checkpointCommand(checkpoint, "--diff")}`,
    `parent → target 的 diff（新文件从 /dev/null 整个加入）：${checkpointCommand(checkpoint, "--diff parent")}`,
    `写出完整可构建的树：${checkpointCommand(checkpoint, "--write parent|target <目录>")}`,
  ];
  return lines.join("\n");
}

/** The first checkpoint's parent files; any later parent is the previous checkpoint's target. */
function parentLines(checkpoint: Checkpoint): string[] {
  if (checkpoint.parent.files !== undefined) return checkpoint.parent.files.map((entry) => `  ${entry}`);
  const checkpoints = loadManifest().checkpoints;
  const previous = checkpoints[checkpoints.findIndex((candidate) => candidate.id === checkpoint.id) - 1];
  return previous === undefined ? [] : [`  = Checkpoint ${previous.id} 的 target`];
}

function changedLines(checkpoint: Checkpoint): string[] {
  const changed = changedFiles(checkpoint);
  if (changed.length === 0) return [];
  return [`  改动（改动前的版本在 ${beforeFolder(checkpoint)}/）：`, ...changed.map((entry) => `  ${entry}`)];
}
