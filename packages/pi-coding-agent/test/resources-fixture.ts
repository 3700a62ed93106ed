// Test helpers for chapter 12: a real folder tree in a temp folder. A repository `repo/` whose
// AGENTS.md says never to touch generated/, its app `repo/app/` (the workspace), a global folder,
// and a folder outside holding a secret: what an escape out of a skill would reach.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface Tree {
  base: string;
  global: string;
  repo: string;
  workspace: string;
  outside: string;
  /** Writes a file under `base` (parents created) and returns its absolute path. */
  put(relative: string, content: string): Promise<string>;
}

export const SECRET = "TOP-SECRET-VALUE";

/** Makes the tree, runs `use`, and removes it whatever happens. */
export async function withTree<T>(use: (tree: Tree) => Promise<T>): Promise<T> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "pi-resources-test-")));
  const tree: Tree = {
    base,
    global: path.join(base, "global"),
    repo: path.join(base, "repo"),
    workspace: path.join(base, "repo", "app"),
    outside: path.join(base, "outside"),
    async put(relative, content) {
      const file = path.join(base, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
  };
  await Promise.all([tree.global, tree.workspace, tree.outside].map((dir) => mkdir(dir, { recursive: true })));
  await tree.put("outside/secret.txt", SECRET);
  try {
    return await use(tree);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

/** A SKILL.md in the Agent Skills format. */
export function skillText(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** An extension module that leaves `marker` at import (its top-level code), then runs `factory`. */
export function extensionText(marker: string, factory: string): string {
  return [
    'import { writeFileSync } from "node:fs";',
    `writeFileSync(${JSON.stringify(marker)}, "imported");`,
    `export default ${factory};`,
    "",
  ].join("\n");
}
