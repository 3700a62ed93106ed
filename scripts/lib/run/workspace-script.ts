// The workspace packages of a tree, and the compiler behind a build script. `npm run build -w
// @pi/course` spends about 0.4 s starting npm before a no-op `tsc -b` of 0.15 s; verify, the
// diagnostic and the course suite build thousands of times, so when the script npm would run is
// exactly `tsc -b`, the compiler is started directly, where and how npm would start it. Any other
// script, or a tree without its own TypeScript, goes through npm as written on the card.

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/** The `workspaces` folders of the tree `dir` (relative to it), or none. */
export async function workspaceFolders(dir: string): Promise<string[]> {
  return (await packageJson(dir))?.workspaces ?? [];
}

/** The folder (relative to the tree `dir`) of the workspace package named `name`. */
export async function workspaceFolder(dir: string, name: string): Promise<string | undefined> {
  for (const folder of await workspaceFolders(dir)) {
    if ((await packageJson(path.join(dir, folder)))?.name === name) return folder;
  }
  return undefined;
}

export interface CompilerRun {
  /** The TypeScript compiler's entry script, resolved from the package as npm's PATH would find `tsc`. */
  tsc: string;
  args: string[];
  /** The package folder npm would run the script in. */
  cwd: string;
}

/**
 * `npm run <script> [-w <package>] [-- <extra>…]` in the tree `dir` as a direct compiler run, when the
 * script is exactly `tsc -b` and the tree resolves its own `typescript`; otherwise undefined.
 */
export async function directCompilerRun(dir: string, npmArgs: readonly string[]): Promise<CompilerRun | undefined> {
  const [command, script, ...rest] = npmArgs;
  if (command !== "run" || script === undefined) return undefined;
  let cwd = dir;
  if (rest[0] === "-w" || rest[0] === "--workspace") {
    const name = rest[1];
    const folder = name === undefined ? undefined : await workspaceFolder(dir, name);
    if (folder === undefined) return undefined;
    cwd = path.join(dir, folder);
    rest.splice(0, 2);
  }
  if (rest.length > 0 && rest[0] !== "--") return undefined;
  if ((await packageJson(cwd))?.scripts?.[script] !== "tsc -b") return undefined;
  const tsc = await compilerEntry(cwd);
  return tsc === undefined ? undefined : { tsc, args: ["-b", ...rest.slice(1)], cwd };
}

/** The `tsc` bin of the `typescript` package that node resolution finds from `folder`, as npm links it. */
async function compilerEntry(folder: string): Promise<string | undefined> {
  let manifest: string;
  try {
    manifest = createRequire(path.join(folder, "package.json")).resolve("typescript/package.json");
  } catch {
    return undefined;
  }
  const bin = (await packageJson(path.dirname(manifest)))?.bin?.tsc;
  return bin === undefined ? undefined : path.join(path.dirname(manifest), bin);
}

interface PackageJson {
  name?: string;
  workspaces?: string[];
  scripts?: Record<string, string>;
  bin?: Record<string, string>;
}

async function packageJson(folder: string): Promise<PackageJson | undefined> {
  try {
    return JSON.parse(await readFile(path.join(folder, "package.json"), "utf8")) as PackageJson;
  } catch {
    return undefined;
  }
}
