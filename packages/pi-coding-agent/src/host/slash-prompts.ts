// A prompt that starts with a slash: `/skill:NAME [words]` activates a skill and sends its body
// (then the words), `/NAME args` renders the prompt template .tiny-pi/prompts/NAME.md with the
// arguments. The REPL's own commands (/exit, /tree, /branch, /compact) are handled before this; a
// slash that names no skill or template is one line and nothing is sent.
import { errorMessageOf, type UserMessage } from "@pi/core";
import type { ResourceCode } from "./resource-code.js";
import type { RunResources } from "./run-resources.js";
import { skillText } from "./skill-tool.js";

export type Expanded = { prompt: string } | { problem: string };

/** `/name` or `/name args`: the shape of a template call. A path such as /usr/bin/x is not one. */
const TEMPLATE_CALL = /^\/([\w.-]+)(?:\s+([\s\S]*))?$/;
const SKILL_CALL = /^\/skill:(\S*)(?:\s+([\s\S]*))?$/;

/** The prompt `line` stands for; undefined when it is an ordinary prompt. */
export async function expandSlash(
  line: string,
  resources: Pick<RunResources, "skills" | "templates">,
  code: Pick<ResourceCode, "activateSkill" | "renderTemplate" | "splitTemplateArgs">,
): Promise<Expanded | undefined> {
  const skillCall = SKILL_CALL.exec(line);
  if (skillCall !== null) {
    const [, name = "", rest = ""] = skillCall;
    const skill = resources.skills.find((candidate) => candidate.name === name);
    if (skill === undefined) {
      return {
        problem: `没有名为 "${name}" 的技能：${listed("技能", resources.skills)}（tiny-pi resources 列出它们）`,
      };
    }
    try {
      const body = skillText(skill, await code.activateSkill(skill));
      return { prompt: rest.trim() === "" ? body : `${body}\n\n${rest.trim()}` };
    } catch (error) {
      return { problem: `技能 ${name} 没有激活：${errorMessageOf(error).split("\n")[0]}` };
    }
  }
  const templateCall = TEMPLATE_CALL.exec(line);
  if (templateCall === null) return undefined;
  const [, name = "", rest = ""] = templateCall;
  const template = resources.templates.find((candidate) => candidate.name === name);
  if (template === undefined) {
    return {
      problem: `没有名为 "${name}" 的提示模板（.tiny-pi/prompts/${name}.md）：${listed("模板", resources.templates)}（tiny-pi resources 列出它们）`,
    };
  }
  try {
    return { prompt: messageText(code.renderTemplate(template, code.splitTemplateArgs(rest))) };
  } catch (error) {
    return { problem: `模板 ${name} 没有展开：${errorMessageOf(error).split("\n")[0]}` };
  }
}

function listed(what: string, resources: readonly { name: string }[]): string {
  return resources.length === 0
    ? `这里没有任何${what}`
    : `可用的${what}有 ${resources.map((resource) => resource.name).join("、")}`;
}

function messageText(message: UserMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return content;
  return (content as { type: string; text?: string }[])
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}
