// The environment an MCP server starts with: what any program needs to run (PATH, HOME, the locale,
// the temp folder, Windows' system folders), tiny-pi's process guard (so no server outlives it), and
// the variables its config names. Nothing else of tiny-pi's environment: not the model's key, not
// any other credential the user happens to have exported.
import { GUARD_VARIABLE } from "../process/parent-watchdog.js";

const BASE = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "LANG",
  "LC_ALL",
  "TMPDIR",
  "TEMP",
  "TMP",
  "SystemRoot",
  "SYSTEMROOT",
  "ComSpec",
  "PATHEXT",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "ProgramFiles",
];

export function serverEnvironment(
  configured: Record<string, string> | undefined,
  own: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of BASE) if (own[name] !== undefined) env[name] = own[name];
  for (const [name, value] of Object.entries(own)) if (name.startsWith(GUARD_VARIABLE)) env[name] = value;
  return { ...env, ...configured };
}
