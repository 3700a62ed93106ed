// Every lab is stubbed in a starter with its exact error, a starter names no lab of this chapter that
// the manifest lacks, and no error text a lab comment gives the learner stops at "; …" (the fix left out).
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
  for (const { file, source } of starters) {
    for (const line of truncatedMessages(source)) {
      problems.push(
        `${file}:${line} 的 Lab 注释给出的错误文字在“; …”处断了：写出整句（和 target 里的一样），学习者才知道改法那半句写什么`,
      );
    }
  }
  return [...new Set(problems)];
}

/** 1-based lines whose backticked error text ends in "; …" instead of the fix. */
export function truncatedMessages(source: string): number[] {
  return source.split("\n").flatMap((line, index) => (/;\s*…`/.test(line) ? [index + 1] : []));
}
