// Lab 12.3 · 模板与上下文: the one place the resource context is formatted for the system prompt.
import type { Resource } from "./types.js";

/**
 * Context files in the order given, each under its path, then the skills catalogue: each skill's
 * name, description and location, never its body (activation reads that). Empty when there is
 * nothing to say. The caller appends it to the system prompt: it is never a message.
 */
export function formatResourceContext(
  contextFiles: readonly { path: string; content: string }[],
  skills: readonly Resource[],
): string {
  const sections: string[] = [];
  for (const file of contextFiles)
    sections.push(`<context_file path="${file.path}">\n${file.content.trim()}\n</context_file>`);
  const listed = skills.filter((skill) => skill.kind === "skill");
  if (listed.length > 0) {
    const lines = listed.map(
      (skill) => `<skill name="${skill.name}" location="${skill.path}">\n${skill.description ?? ""}\n</skill>`,
    );
    sections.push(
      [
        "<available_skills>",
        "Activate a skill to read its instructions before you follow it.",
        ...lines,
        "</available_skills>",
      ].join("\n"),
    );
  }
  return sections.join("\n\n");
}
