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

/** What the README must say for `checkpoint`, each as [what, the exact text]. */
export function readmeRequirements(checkpoint: Checkpoint): [string, string][] {
  return [
    ["课程表里的一行（编号与聚焦测试数）", tableRow(checkpoint)],
    ["新建练习目录", practiceCommand(checkpoint)],
    ["构建", checkpoint.build],
    ["聚焦运行", focusedCommand(checkpoint)],
    ["第一次红灯", checkpoint.firstRed],
    ["verify", verifyCommand(checkpoint)],
    ["检查点卡片", checkpointCommand(checkpoint)],
    ["starter → target 的 diff", checkpointCommand(checkpoint, "--diff")],
    ["诊断", diagnosticCommand(checkpoint)],
    ...checkpoint.labs.flatMap((lab): [string, string][] => [
      [`Lab ${lab.id} 的聚焦运行`, focusedCommand(checkpoint, lab.pattern)],
      [`Lab ${lab.id} 的预期`, `${lab.expected}/${lab.expected}`],
    ]),
  ];
}

/** Stands for the course table's row: `| <id> … | <N> 项 |`, matched by `rowOf`. */
function tableRow(checkpoint: Checkpoint): string {
  return `| ${checkpoint.id} … | ${focusedTestCount(checkpoint)} 项 |`;
}

/** Whether the README says `text`: the table row is looked up by its id and must end with the count. */
export function readmeSays(readme: string, text: string): boolean {
  const row = /^\| (\d{2}) … \| (\d+ 项) \|$/.exec(text);
  if (row === null) return readme.includes(text);
  const line = readme.split("\n").find((candidate) => candidate.startsWith(`| ${row[1]} `));
  return line !== undefined && new RegExp(`\\|\\s*${row[2]}\\s*\\|$`).test(line.trimEnd());
}

export function readmeProblems(checkpoint: Checkpoint, readme = readRepo("README.md") ?? ""): string[] {
  const missing = readmeRequirements(checkpoint).filter(([, text]) => !readmeSays(readme, text));
  if (missing.length === 0) return [];
  return [
    `README.md 缺少检查点 ${checkpoint.id} 的 ${missing.length} 项（npm run checkpoint -w @pi/course -- --new 生成的块里都有）：${missing
      .map(([what, text]) => `${what} ${text}`)
      .join("；")}`,
  ];
}
