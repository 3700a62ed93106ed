// The diagnostic's find/replace must apply to the target's file: find exactly once, replace absent.
import type { Checkpoint } from "../manifest.js";
import { targetFile } from "../snapshots.js";

export function diagnosticProblems(checkpoint: Checkpoint): string[] {
  const { file, find, replace } = checkpoint.diagnostic;
  const source = targetFile(checkpoint, file);
  if (source === undefined) return [];
  const problems: string[] = [];
  const first = source.indexOf(find);
  if (first === -1) problems.push(`diagnostic.find 不在 ${file} 里：从文件里原样复制要改的那几行（含缩进与换行）`);
  else if (source.indexOf(find, first + 1) !== -1) {
    problems.push(`diagnostic.find 在 ${file} 里出现不止一次：多带几行上下文，让它只出现一次`);
  }
  if (find === replace) problems.push("diagnostic 什么也没改：find 与 replace 相同");
  else if (replace !== "" && source.includes(replace)) {
    problems.push(`diagnostic.replace 已经出现在 ${file} 里：诊断之后就分不清改没改，换一个只在诊断里出现的写法`);
  }
  return problems;
}
