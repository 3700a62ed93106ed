// The README is the course's index: a row of the course table for each checkpoint, with its focused
// test count from the manifest and a link to its guide (where the chapter's commands are: see
// command-block-check.ts).
import { type Checkpoint, focusedTestCount } from "../manifest.js";
import { readRepo } from "./read-repo.js";
import type { TextRequirement } from "./text-requirement.js";

/** What the README must say for `checkpoint`. */
export function readmeRequirements(checkpoint: Checkpoint): TextRequirement[] {
  const count = `${focusedTestCount(checkpoint)} 项`;
  const row = (readme: string) => readme.split("\n").find((line) => line.startsWith(`| ${checkpoint.id} `));
  return [
    {
      what: "课程表里的一行（编号与聚焦测试数）",
      text: `| ${checkpoint.id} … | ${count} |`,
      // The row is found by its id and must end with the count, however the table pads it.
      found: (readme) => {
        const found = row(readme);
        return found !== undefined && new RegExp(`\\|\\s*${count}\\s*\\|$`).test(found.trimEnd());
      },
    },
    ...(checkpoint.guide === undefined
      ? []
      : [
          {
            what: "课程表里指向指南的链接",
            text: `(${checkpoint.guide})`,
            found: (readme: string) => row(readme)?.includes(`(${checkpoint.guide})`) === true,
          },
        ]),
  ];
}

export function readmeProblems(checkpoint: Checkpoint, readme = readRepo("README.md") ?? ""): string[] {
  const missing = readmeRequirements(checkpoint).filter((requirement) => !requirement.found(readme));
  if (missing.length === 0) return [];
  return [
    `README.md 缺少检查点 ${checkpoint.id} 的 ${missing.length} 项（npm run checkpoint -w @pi/course -- --new 写出的一行里都有）：${missing
      .map(({ what, text }) => `${what} ${text}`)
      .join("；")}`,
  ];
}
