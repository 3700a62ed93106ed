// Skills on demand: the model-callable `activate_skill` tool, and the text an activated skill
// becomes. A skill's body is read only here (chapter 12's activateSkill), never at discovery.
import { errorMessageOf, type Tool, text } from "@pi/core";
import type { Resource } from "../index.js";
import type { ResourceCode } from "./resource-code.js";

export const ACTIVATE_SKILL = "activate_skill";

/** An activated skill as the model reads it: its body under its name and location. */
export function skillText(skill: Resource, activated: { body: string; sources: string[] }): string {
  return `<skill name="${skill.name}" location="${skill.path}">\n${activated.body.trim()}\n</skill>`;
}

export function activateSkillTool(skills: readonly Resource[], code: Pick<ResourceCode, "activateSkill">): Tool {
  return {
    name: ACTIVATE_SKILL,
    description:
      "Read a skill's instructions (the body of its SKILL.md) before following it; the skills are listed under available_skills in the system prompt. `files` are further files of that skill's own folder to read with it.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", enum: skills.map((skill) => skill.name) },
        files: { type: "array", items: { type: "string" }, description: "Paths relative to the skill's folder." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    async execute(args) {
      const { name, files = [] } = args as { name: string; files?: string[] };
      const skill = skills.find((candidate) => candidate.name === name);
      if (skill === undefined) {
        throw new Error(`No skill named ${name}; the skills are: ${skills.map((each) => each.name).join(", ")}.`);
      }
      try {
        const activated = await code.activateSkill(skill, files);
        return { content: [text(skillText(skill, activated))], details: { name, sources: activated.sources } };
      } catch (error) {
        throw new Error(errorMessageOf(error));
      }
    },
  };
}
