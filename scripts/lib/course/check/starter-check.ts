// Every lab is stubbed in a starter with its exact error, and a starter names no lab of this chapter that the manifest lacks.
import { type Checkpoint, labError } from "../manifest.js";
import { readRepo } from "./read-repo.js";

export function starterProblems(checkpoint: Checkpoint): string[] {
  const starters = Object.values(checkpoint.starters).map((file) => ({ file, source: readRepo(file) ?? "" }));
  const problems: string[] = [];
  for (const lab of checkpoint.labs) {
    if (!starters.some(({ source }) => source.includes(labError(lab)))) {
      problems.push(
        `没有 starter 留下 Lab ${lab.id} 的桩（${starters.map(({ file }) => file).join("、")}）：在它的位置写 throw new Error("${labError(lab)}")`,
      );
    }
  }
  const ids = new Set(checkpoint.labs.map((lab) => lab.id));
  for (const { file, source } of starters) {
    const own = new RegExp(`Lab (${Number(checkpoint.id)}\\.\\d+)(?![\\d.])`, "g");
    for (const match of source.matchAll(own)) {
      if (!ids.has(match[1] ?? "")) problems.push(`${file} 提到 Lab ${match[1]}，清单里没有这段 Lab`);
    }
  }
  return [...new Set(problems)];
}
