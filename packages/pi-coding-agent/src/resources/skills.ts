// Lab 12.2 · 技能按需: the Agent Skills format, and a skill's body read only when it is activated.
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
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const end = lines.indexOf("---", 1);
  if (lines[0] !== "---" || end === -1) {
    throw new Error(`${where}：SKILL.md 要以 --- 包起来的前置元数据开头（name 与 description）`);
  }
  const fields = new Map<string, string>();
  for (const line of lines.slice(1, end)) {
    const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (match?.[1] !== undefined) fields.set(match[1], unquote((match[2] ?? "").trim()));
  }
  const name = fields.get("name") ?? "";
  const description = fields.get("description") ?? "";
  if (!SKILL_NAME.test(name) || name.length > 64) {
    throw new Error(`${where}：name "${name}" 要是小写字母、数字与单个连字符（最多 64 个字符）`);
  }
  if (description === "") throw new Error(`${where}：缺少 description：写一句这个技能做什么、什么时候用`);
  return { name, description, body: lines.slice(end + 1).join("\n") };
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
  const root = path.dirname(skill.path);
  const skillFile = await insideSkill(root, path.basename(skill.path), skill.name);
  const { name, body } = parseSkillFile(await readFile(skillFile, "utf8"), skillFile);
  const sources = [skillFile];
  let text = body;
  for (const file of files) {
    const real = await insideSkill(root, file, name);
    text += `\n<file path="${real}">\n${(await readFile(real, "utf8")).trimEnd()}\n</file>\n`;
    sources.push(real);
  }
  return { name, body: text, sources };
}

async function insideSkill(root: string, file: string, name: string): Promise<string> {
  try {
    return await resolveWorkspacePath(root, file);
  } catch (error) {
    throw new Error(`技能 ${name} 只能读它自己目录 ${root} 里的文件，"${file}" 被拒绝：${errorMessageOf(error)}`);
  }
}
