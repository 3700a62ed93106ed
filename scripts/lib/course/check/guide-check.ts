// A guide kept in the repository has chapter 07's parts (the card, a box per lab, the diagnostic,
// the acceptance questions, a summary), and each lab's hint points at one of its headings.
import type { Checkpoint } from "../manifest.js";
import { readRepo } from "./read-repo.js";

interface Part {
  name: string;
  found: (checkpoint: Checkpoint, headings: string[], guide: string) => boolean;
  example: (checkpoint: Checkpoint) => string;
}

const headed = (pattern: RegExp) => (_: Checkpoint, headings: string[]) => headings.some((h) => pattern.test(h));

/** Parts of chapter 07's standard that every guide has, found by its headings (the card also as a card line). */
const PARTS: Part[] = [
  {
    name: "检查点卡片",
    found: (checkpoint, headings, guide) =>
      headings.includes("检查点卡片") || guide.includes(`Checkpoint ${checkpoint.id} · `),
    example: (checkpoint) => `## Checkpoint ${checkpoint.id} · ${checkpoint.title}`,
  },
  { name: "诊断", found: headed(/^诊断 · /), example: (checkpoint) => `## ${checkpoint.diagnostic.title}` },
  { name: "验收问题", found: headed(/验收/), example: () => "## 本章验收" },
  { name: "小结", found: headed(/^小结/), example: () => "## 小结" },
];

export function guideProblems(checkpoint: Checkpoint): string[] {
  if (checkpoint.guide === undefined) return [];
  const guide = readRepo(checkpoint.guide);
  if (guide === undefined) return [];
  const file = checkpoint.guide;
  const headings = [...guide.matchAll(/^#{1,6} (.+)$/gm)].map((match) => (match[1] ?? "").trim());
  const problems: string[] = [];
  for (const part of PARTS) {
    if (!part.found(checkpoint, headings, guide)) {
      problems.push(`${file} 没有“${part.name}”一节：加一个标题，例如 ${part.example(checkpoint)}`);
    }
  }
  for (const lab of checkpoint.labs) {
    if (!guide.includes(`实践 ${lab.id} · ${lab.practice}`)) {
      problems.push(`${file} 没有 Lab ${lab.id} 的实践框：加一个标题“实践 ${lab.id} · ${lab.practice}”`);
    }
    const section = /见指南“([^”]+)”/.exec(lab.hint)?.[1];
    if (section === undefined) problems.push(`lab ${lab.id} 的 hint 要指向指南的一节：以 见指南“<标题>” 结尾`);
    else if (!headings.includes(section)) problems.push(`lab ${lab.id} 的 hint 指向“${section}”，${file} 没有这个标题`);
  }
  return problems;
}
