// `tiny-pi resources`: the course's chapter 12 code reads what a run here would load; only reads.

import { courseResourceCode } from "../host/resource-code.js";
import { loadRunResources } from "../host/run-resources.js";
import { trustRecord } from "../host/trust-record.js";
import type { Invocation } from "./invocation.js";
import { resourcesText } from "./resources-view.js";

export function resourcesCommandText(command: Extract<Invocation, { kind: "resources" }>): string {
  const { workspace, home, contextFiles } = command;
  const resources = loadRunResources(courseResourceCode, { workspace, home, contextFiles });
  return resourcesText(resources, trustRecord(home), contextFiles);
}
