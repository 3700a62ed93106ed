export { buildCatalogue } from "./catalogue.js";
export { formatResourceContext } from "./context.js";
export { DEFAULT_LAYOUT, discoverResources } from "./discover.js";
export { resourceRoots } from "./roots.js";
export { type ActivatedSkill, activateSkill, parseSkillFile } from "./skills.js";
export { renderTemplate, splitTemplateArgs } from "./templates.js";
export type {
  Catalogue,
  Diagnostic,
  Resource,
  ResourceKind,
  ResourceLayout,
  ResourceRoot,
  RootKind,
  Shadowing,
} from "./types.js";
