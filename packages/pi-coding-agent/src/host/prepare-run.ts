// What a run checks before anything is written: the model catalogue (--model, models.json) and the
// resources (chapter 12, no extension imported yet), so that a refusal touches no session file; and
// a one-shot /template or /skill prompt, expanded against those resources before the session opens.

import { UsageError } from "./errors.js";
import { type LoadedModels, loadModels } from "./model-selection.js";
import { courseResourceCode, type ResourceCode } from "./resource-code.js";
import type { RunCode, RunConfig } from "./run-config.js";
import { loadRunResources, type RunResources } from "./run-resources.js";
import { type Expanded, expandSlash } from "./slash-prompts.js";

export interface PreparedRun {
  /** undefined: neither --base-url nor --model nor a models.json (the embedded model). */
  models: LoadedModels | undefined;
  resources: RunResources;
  resourceCode: ResourceCode;
  /** A line starting with /NAME or /skill:NAME expanded; undefined: it names neither. */
  expand(line: string): Promise<Expanded | undefined>;
  /** The one prompt of a run without the REPL, its /template or /skill expanded. */
  prompt?: string;
}

/** `prompt`: the one prompt of a run without the REPL; one naming a template that does not fit is a UsageError. */
export async function prepareRun(
  config: RunConfig,
  code: RunCode,
  notes: { write(text: string): unknown },
  prompt?: string,
): Promise<PreparedRun> {
  // With --from a chapter-18 directory, the catalogue is the learner's.
  const models = loadModels(config.models, config.home, code.models);
  const resourceCode = code.resources ?? courseResourceCode;
  const resources = loadRunResources(resourceCode, {
    workspace: config.workspace,
    home: config.home,
    contextFiles: config.contextFiles,
  });
  for (const line of resources.problems) notes.write(`${line}\n`);
  const expand = (line: string) => expandSlash(line, resources, resourceCode);
  if (prompt === undefined) return { models, resources, resourceCode, expand };
  const expanded = await expand(prompt);
  if (expanded !== undefined && "problem" in expanded) throw new UsageError(expanded.problem);
  return { models, resources, resourceCode, expand, prompt: expanded?.prompt ?? prompt };
}
