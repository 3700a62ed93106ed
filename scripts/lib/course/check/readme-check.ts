// The README is a learner's first instructions: each checkpoint's row in the course table and its
// block of commands (practice → build → first red → each lab → all), spelled from the manifest.
import {
  checkpointCommand,
  diagnosticCommand,
  focusedCommand,
  practiceCommand,
  verifyCommand,
} from "../../commands.js";
import { type Checkpoint, focusedTestCount } from "../manifest.js";
import { readRepo } from "./read-repo.js";

export interface ReadmeRequirement {
  /** What it is, as the problem line names it. */
  what: string;
  /** The text the README must carry. */
  text: string;
  found: (readme: string) => boolean;
}

const literal = (what: string, text: string): ReadmeRequirement => ({
  what,
  text,
  found: (readme) => readme.includes(text),
});

/** What the README must say for `checkpoint`. */
export function readmeRequirements(checkpoint: Checkpoint): ReadmeRequirement[] {
  const count = `${focusedTestCount(checkpoint)} 项`;
  return [
    {
      what: "课程表里的一行（编号与聚焦测试数）",
      text: `| ${checkpoint.id} … | ${count} |`,
      // The row is found by its id and must end with the count, however the table pads it.
      found: (readme) => {
        const row = readme.split("\n").find((line) => line.startsWith(`| ${checkpoint.id} `));
        return row !== undefined && new RegExp(`\\|\\s*${count}\\s*\\|$`).test(row.trimEnd());
      },
    },
    literal("新建练习目录", practiceCommand(checkpoint)),
    literal("构建", checkpoint.build),
    literal("聚焦运行", focusedCommand(checkpoint)),
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

export function readmeProblems(checkpoint: Checkpoint, readme = readRepo("README.md") ?? ""): string[] {
  const missing = readmeRequirements(checkpoint).filter((requirement) => !requirement.found(readme));
  if (missing.length === 0) return [];
  return [
    `README.md 缺少检查点 ${checkpoint.id} 的 ${missing.length} 项（npm run checkpoint -w @pi/course -- --new 生成的块里都有）：${missing
      .map(({ what, text }) => `${what} ${text}`)
      .join("；")}`,
  ];
}
