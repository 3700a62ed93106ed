// What the person is told about models: the REPL banner's name for the selection, the start line
// of a virtual model (and of a branch continuing on its own model), and why a request fell back.

import type { ModelChoice } from "../host/model-selection.js";
import type { ModelSwitch } from "../host/model-switch.js";
import type { Redact } from "../host/redacting.js";
import type { FallbackNote } from "../models/index.js";

/** The banner's name for the selection: `model @ endpoint`, a virtual model and its route, or the embedded model. */
export function modelLabel(choice: ModelChoice): string {
  const { models } = choice;
  if (!choice.remote) return "内置脚本模型";
  const physical = models.catalogue.physical.get(models.selected());
  return physical === undefined ? models.describe() : `${physical.modelId} @ ${choice.redact(physical.baseUrl)}`;
}

/** Lines at the start: a virtual model names its route; a resumed branch names the model it continues on. */
export function modelLines(models: ModelSwitch, branchModel: string | undefined): string[] {
  const lines: string[] = [];
  if (models.catalogue.virtual.has(models.selected())) lines.push(`模型：${models.describe()}`);
  else if (branchModel !== undefined && branchModel === models.selected()) {
    lines.push(`模型：${branchModel}（这个分支上最近选用的模型）`);
  }
  return lines;
}

/** Why a request went to the next model of its route. */
export function fallbackLine(note: FallbackNote, redact: Redact): string {
  return `（${note.from.id} 没能回答：${redact(note.why)}；这个请求改由 ${note.to.id} 回答）`;
}
