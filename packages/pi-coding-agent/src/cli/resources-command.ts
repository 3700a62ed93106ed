// `tiny-pi resources`: the course's chapter 12 code reads what a run here would load; only reads.

import { courseResourceCode } from "../host/resource-code.js";
import { loadRunResources } from "../host/run-resources.js";
import { trustRecord } from "../host/trust-record.js";
import type { CliArgs } from "./args.js";
import { resourcesText } from "./resources-view.js";
import { tinyPiHome } from "./tiny-pi-home.js";

export function resourcesCommandText(args: CliArgs, env: NodeJS.ProcessEnv): string {
  const home = tinyPiHome(env);
  const contextFiles = args.noContextFiles !== true;
  const resources = loadRunResources(courseResourceCode, { workspace: args.workspace, home, contextFiles });
  return resourcesText(resources, trustRecord(home), contextFiles);
}
