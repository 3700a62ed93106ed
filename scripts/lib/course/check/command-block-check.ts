// Each chapter's block of commands lives in its guide, in the section whose heading starts with
// `## 命令`: every command a learner types for the chapter (practice → build → first red → each lab →
// all, verify, the card, the diff, the diagnostic, and --from the chapter before), spelled from the
// manifest. The README is the index that links to it.
import {
  checkpointCommand,
  diagnosticCommand,
  focusedCommand,
  practiceCommand,
  verifyCommand,
} from "../../commands.js";
import { type Checkpoint, focusedTestCount } from "../manifest.js";
import { readRepo } from "./read-repo.js";
import { literal, type TextRequirement } from "./text-requirement.js";

/** The heading that opens a guide's command block. */
export const COMMAND_HEADING = "## 命令";

/** `npm run practice -w @pi/course -- 08 --from practice/07`: the chapter started from the learner's own previous one. */
export function fromCommand(checkpoint: Checkpoint, previous: Checkpoint): string {
  return `${practiceCommand(checkpoint)} --from practice/${previous.id}`;
}

/** What `checkpoint`'s command block must carry; `previous` is the checkpoint before it in the course, if any. */
export function commandBlockRequirements(checkpoint: Checkpoint, previous?: Checkpoint): TextRequirement[] {
  return [
    literal("新建练习目录", practiceCommand(checkpoint)),
    ...(previous === undefined
      ? []
      : [literal(`带着第 ${previous.id} 章的代码（--from）`, fromCommand(checkpoint, previous))]),
    literal("构建", checkpoint.build),
    literal("聚焦运行", focusedCommand(checkpoint)),
    literal("聚焦测试数", `${focusedTestCount(checkpoint)} 项`),
    literal("第一次红灯", checkpoint.firstRed),
    literal("verify", verifyCommand(checkpoint)),
    literal("检查点卡片", checkpointCommand(checkpoint)),
    literal("starter → target 的 diff", checkpointCommand(checkpoint, "--diff")),
    literal("诊断", diagnosticCommand(checkpoint)),
    ...checkpoint.labs.flatMap((lab) => [
      literal(`Lab ${lab.id} 的聚焦运行`, focusedCommand(checkpoint, lab.pattern)),
      literal(`Lab ${lab.id} 的预期`, `${lab.expected}/${lab.expected}`),
    ]),
  ];
}

/** The guide's command block: from its `## 命令` heading to the next `## ` heading; undefined without one. */
export function commandBlockOf(guide: string): string | undefined {
  const start = guide.split("\n").findIndex((line) => line.startsWith(COMMAND_HEADING));
  if (start === -1) return undefined;
  const lines = guide.split("\n").slice(start);
  const end = lines.findIndex((line, index) => index > 0 && line.startsWith("## "));
  return (end === -1 ? lines : lines.slice(0, end)).join("\n");
}

export function commandBlockProblems(
  checkpoint: Checkpoint,
  previous?: Checkpoint,
  guide = checkpoint.guide === undefined ? undefined : readRepo(checkpoint.guide),
): string[] {
  if (checkpoint.guide === undefined || guide === undefined) return [];
  // A guide without the heading is read whole: its commands count wherever they are, and what is
  // missing is named with the section to put it in.
  const block = commandBlockOf(guide);
  const missing = commandBlockRequirements(checkpoint, previous).filter(
    (requirement) => !requirement.found(block ?? guide),
  );
  if (missing.length === 0) return [];
  const where =
    block === undefined
      ? `${checkpoint.guide} 没有“${COMMAND_HEADING}”一节（命令块：npm run checkpoint -w @pi/course -- --new 生成的指南里有），缺少 ${missing.length} 项`
      : `${checkpoint.guide} 的“${COMMAND_HEADING}”一节缺少 ${missing.length} 项`;
  return [`${where}：${missing.map(({ what, text }) => `${what} ${text}`).join("；")}`];
}
