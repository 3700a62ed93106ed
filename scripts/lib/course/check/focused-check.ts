// The focused test file against the labs: each lab's pattern selects exactly its expected count of
// test names, every test belongs to one lab, and every comparing assertion names its rule.
import type { Checkpoint } from "../manifest.js";
import { readRepo } from "./read-repo.js";
import { unnamedAssertions } from "./rule-messages.js";
import { selects, testTitles } from "./test-titles.js";

export function focusedProblems(checkpoint: Checkpoint): string[] {
  const file = checkpoint.focusedTest;
  const source = readRepo(file);
  if (source === undefined) return [];
  const problems: string[] = [];
  const { titles, unreadable } = testTitles(source);
  for (const line of unreadable)
    problems.push(`${file}:${line}：测试名不是普通字符串，无法按 Lab 的模式计数：写成字面字符串`);
  for (const lab of checkpoint.labs) {
    const selected = titles.filter((title) => selects(lab.pattern, title)).length;
    if (selected === 0) {
      problems.push(`lab ${lab.id} 的模式“${lab.pattern}”不匹配 ${file} 里任何测试名：改模式，或在测试名里写上它`);
    } else if (selected !== lab.expected) {
      problems.push(
        `lab ${lab.id} 的模式“${lab.pattern}”选中 ${selected} 项测试，expected 写的是 ${lab.expected}：改成 ${selected}`,
      );
    }
  }
  for (const title of titles) {
    const labs = checkpoint.labs.filter((lab) => selects(lab.pattern, title));
    if (labs.length === 0) problems.push(`${file}：测试“${title}”不属于任何 Lab：测试名里写上某段 Lab 的模式`);
    if (labs.length > 1) {
      problems.push(
        `${file}：测试“${title}”同时被 ${labs.map((lab) => `lab ${lab.id}`).join("、")} 选中：每项测试只属于一段 Lab`,
      );
    }
  }
  for (const unnamed of unnamedAssertions(file, source))
    problems.push(`${unnamed} 没有说明它检查的规则：加上中文的规则说明`);
  return problems;
}
