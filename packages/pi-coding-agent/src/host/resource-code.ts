// The chapter 12 code tiny-pi loads resources and runs hooks with: the course's, or a learner's
// from a practice directory (--from, learner-code.ts). run-resources.ts and run-extensions.ts take
// it as a value, so a learner's roots, discovery, skills, templates, loader and hooks are the ones
// that run.
import { hookedRegistry, loadExtensions } from "../extensions/index.js";
import {
  activateSkill,
  discoverResources,
  formatResourceContext,
  renderTemplate,
  resourceRoots,
  splitTemplateArgs,
} from "../resources/index.js";

export interface ResourceCode {
  resourceRoots: typeof resourceRoots;
  discoverResources: typeof discoverResources;
  activateSkill: typeof activateSkill;
  renderTemplate: typeof renderTemplate;
  splitTemplateArgs: typeof splitTemplateArgs;
  formatResourceContext: typeof formatResourceContext;
  loadExtensions: typeof loadExtensions;
  hookedRegistry: typeof hookedRegistry;
}

export const courseResourceCode: ResourceCode = {
  resourceRoots,
  discoverResources,
  activateSkill,
  renderTemplate,
  splitTemplateArgs,
  formatResourceContext,
  loadExtensions,
  hookedRegistry,
};
