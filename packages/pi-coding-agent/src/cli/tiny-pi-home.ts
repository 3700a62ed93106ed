// The user's tiny-pi folder: global context files, skills, templates and extensions, and the record
// of trusted extensions. `TINY_PI_HOME` names it (tests point it at a temp folder so that they never
// read or write the real home); otherwise it is ~/.tiny-pi, as upstream Pi's is ~/.pi.
import os from "node:os";
import path from "node:path";

export function tinyPiHome(env: NodeJS.ProcessEnv): string {
  const chosen = env.TINY_PI_HOME;
  return chosen !== undefined && chosen !== "" ? path.resolve(chosen) : path.join(os.homedir(), ".tiny-pi");
}
