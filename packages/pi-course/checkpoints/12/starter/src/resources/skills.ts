// Checkpoint 12 · 学习脚手架：ActivatedSkill 的形状、SKILL_NAME、unquote() 与经由第 08 章边界检查的 insideSkill() 已经写好。
// Lab 12.2 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ④ 完成 `// Lab 12.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="技能按需" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { errorMessageOf } from "@pi/core";
import { resolveWorkspacePath } from "../tools/workspace-path.js";
import type { Resource } from "./types.js";

/** The Agent Skills rule for a name: lowercase letters, digits and single hyphens, at most 64. */
const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Splits a SKILL.md into its front matter's `name` and `description` and the body after it.
 * Front matter is the lines between a first line `---` and the next `---`; each `key: value`
 * line at the left margin is a field (quotes around the value are dropped), indented lines and
 * other keys are ignored. A problem is one Chinese line that starts with `where`.
 */
export function parseSkillFile(text: string, where: string): { name: string; description: string; body: string } {
  // Lab 12.2 ①：去掉开头的 BOM，按 \r?\n 分行。第一行逐字是 ---（看 lines[0]，不 trim，不在整个文件里找），再找下一行 ---（lines.indexOf("---", 1)）；
  // 没有就一行报错：`${where}：SKILL.md 要以 --- 包起来的前置元数据开头（name 与 description）`。
  // Lab 12.2 ②：两行 --- 之间，顶格的 key: value 是字段（值是第一个冒号之后的全部，trim 后用 unquote() 去掉引号），缩进的行（空格或制表符开头）与别的键不管（不 trim 键，缩进的键就不等于 name），同一个键写两次时后面的算；键逐字比较，不 trim（Name、DESCRIPTION、“name ”都是别的键：键紧挨着冒号）。
  // name 不符合 SKILL_NAME 或超过 64 个字符就一行报错：`${where}：name "${name}" 要是小写字母、数字与单个连字符（最多 64 个字符）`；
  // name 合格了才查 description（先报 name）：它是空的就一行报错：`${where}：缺少 description：写一句这个技能做什么、什么时候用`。
  // 正文是第二行 --- 之后的全部（用 \n 连起来，原样，不 trim）：正文里再有 ---（Markdown 的分隔线）也是正文。
  throw new Error("Lab 12.2 技能按需 尚未实现");
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted?.[2] ?? value;
}

export interface ActivatedSkill {
  name: string;
  body: string;
  /** The canonical real path of every file read: SKILL.md first, then `files` in order. */
  sources: string[];
}

/**
 * Reads the skill's body (again at every activation: nothing is cached) and each of `files`, relative to the
 * skill's directory. A file is read only if its real path lies inside that directory:
 * chapter 08's boundary refuses `..`, absolute paths outside and symlinks that lead out.
 */
export async function activateSkill(skill: Resource, files: readonly string[] = []): Promise<ActivatedSkill> {
  // Lab 12.2 ③：技能的根是 SKILL.md 所在的目录（path.dirname(skill.path)）。SKILL.md 本身也经 insideSkill()
  // 换成真实路径再读：目录清单里只有它的位置，正文是这时才第一次读，用 parseSkillFile() 拆出来。
  // Lab 12.2 ④：files 里的每个文件都先经 insideSkill()（拒绝 ..、目录外的绝对路径、指向外面的符号链接），
  // 再读它的真实路径，把 `\n<file path="${real}">\n${内容.trimEnd()}\n</file>\n` 接在正文后面。
  // sources 是读过的每个真实路径：先 SKILL.md，再按顺序的 files。
  throw new Error("Lab 12.2 技能按需 尚未实现");
}

async function insideSkill(root: string, file: string, name: string): Promise<string> {
  try {
    return await resolveWorkspacePath(root, file);
  } catch (error) {
    throw new Error(`技能 ${name} 只能读它自己目录 ${root} 里的文件，"${file}" 被拒绝：${errorMessageOf(error)}`);
  }
}
