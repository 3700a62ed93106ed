// What a real model is told about where it works, then the resource context (context files, then
// the skills catalogue: run-resources.ts). The embedded model ignores it.

export function systemPrompt(workspace: string, toolNames: string[], resourceContext = ""): string {
  const own = [
    "You are tiny-pi, a small coding agent.",
    `You work in the workspace ${workspace}; tool paths are relative to it.`,
    `Your tools: ${toolNames.join(", ")}. Read files before you answer questions about them.`,
    "Answer briefly, in the language the user writes in.",
  ].join("\n");
  return resourceContext === "" ? own : `${own}\n\n${resourceContext}`;
}
