// What `npm run checkpoint` prints: the list of checkpoints and one checkpoint's card.
import { checkpointCommand, diagnosticCommand, focusedCommand, practiceCommand, verifyCommand } from "../commands.js";
import { type Checkpoint, focusedTestCount, type Manifest } from "../course/manifest.js";
import { displayWidth, padDisplay } from "../terminal-style.js";

export function checkpointList(manifest: Manifest): string {
  const lines = ["检查点 / Checkpoints:"];
  for (const checkpoint of manifest.checkpoints) {
    lines.push(`  ${checkpoint.id}  ${checkpoint.title}（${checkpoint.mode}）— ${checkpoint.chapter}`);
  }
  lines.push("", "查看某个检查点：npm run checkpoint -w @pi/course -- <编号>，例如 -- 07");
  return lines.join("\n");
}

export function checkpointCard(checkpoint: Checkpoint): string {
  const starters = Object.entries(checkpoint.starters).map(([teaching, starter]) => `${teaching} ← ${starter}`);
  const labWidth = Math.max(...checkpoint.labs.map((lab) => displayWidth(lab.pattern)));
  const lines = [
    `Checkpoint ${checkpoint.id} · ${checkpoint.title}`,
    `章节：${checkpoint.chapter}`,
    `模式：${checkpoint.mode}`,
    "",
    `parent：${checkpoint.parent.description}`,
    ...checkpoint.parent.paths.map((entry) => `  ${entry}`),
    `target：${checkpoint.target.description}`,
    "  parent +",
    ...checkpoint.target.paths.map((entry) => `  ${entry}`),
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
    `诊断：${checkpoint.diagnostic.title}（${diagnosticCommand}）`,
    "",
    `练习目录：${practiceCommand(checkpoint)} [目录]`,
    `Lab 进度与提示：${verifyCommand(checkpoint)} [目录] [--watch]`,
    `卡住时看某段 Lab 的改动：${checkpointCommand(checkpoint, "--lab 7.N")}`,
    `starter → target 的 diff：${checkpointCommand(checkpoint, "--diff")}`,
    `parent → target 的 diff（新文件从 /dev/null 整个加入）：${checkpointCommand(checkpoint, "--diff parent")}`,
    `写出完整可构建的树：${checkpointCommand(checkpoint, "--write parent|target <目录>")}`,
  ];
  return lines.join("\n");
}
