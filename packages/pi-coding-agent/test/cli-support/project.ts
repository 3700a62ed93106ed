// A temp project for the resource, extension and gate tests: a repository root holding .git, its
// workspace folder app/, and a tiny-pi home (TINY_PI_HOME, standing for ~/.tiny-pi), all removed after use.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { cliEnv, withWorkspace } from "./run-cli.js";

/** A project: <dir>/.git (the repository root), <dir>/AGENTS.md, the workspace <dir>/app with its own AGENTS.md, and a home. */
export async function withProject<T>(
  use: (paths: { root: string; workspace: string; home: string; env: NodeJS.ProcessEnv }) => Promise<T>,
): Promise<T> {
  return withWorkspace(async (root) => {
    const workspace = path.join(root, "app");
    const home = path.join(root, "home");
    await mkdir(path.join(root, ".git"), { recursive: true });
    await mkdir(workspace, { recursive: true });
    await mkdir(home, { recursive: true });
    return use({ root, workspace, home, env: cliEnv({ TINY_PI_HOME: home }) });
  });
}

/** Writes `file`, making its folders. */
export async function put(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}
