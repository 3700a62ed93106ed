// Writes a checkpoint as a complete, buildable, isolated workspace:
//   parent   = the parent's paths (the course at the end of the previous chapter)
//   target   = parent + the target's paths (the chapter's finished code and focused tests)
//   practice = target with each teaching file replaced by its starter
// Each tree has its own workspace root (tree-root.ts), links the shared toolchain from the main
// node_modules instead of copying it (tree-links.ts), and is written safely (target-dir.ts).
// dist/ and *.tsbuildinfo are never copied.
import fs from "node:fs/promises";
import path from "node:path";
import { type Checkpoint, repoRoot } from "../course/manifest.js";
import { checkTargetDir, makeTempSibling, moveIntoPlace, type Rename, removeTree } from "./target-dir.js";
import { filesUnder, toPosix, writeFileIn } from "./tree-fs.js";
import { linkNodeModules, toolchainPackages } from "./tree-links.js";
import { rootPackageJson, rootTsconfig, workspacePackages } from "./tree-root.js";

export type TreeKind = "parent" | "target" | "practice";

export interface WriteTreeOptions {
  /** Repository-relative path → content; replaces or adds files (mutants, extra tests). */
  files?: Record<string, string>;
  /** Moves the finished tree into place; replaceable so tests can make that last step fail. */
  rename?: Rename;
}

/** Folders and files that are build output or installs, never part of a tree. */
function isExcluded(name: string): boolean {
  return name === "dist" || name === "node_modules" || name.endsWith(".tsbuildinfo");
}

/** Workspace-root files copied into every tree as they are. */
const SHARED_ROOT_FILES = ["tsconfig.base.json"];

/**
 * Writes the `kind` tree of `checkpoint` into the new directory `dir` (which must not exist, or
 * be empty, and whose parent must exist). Built in a temporary sibling and renamed into place,
 * so a failure leaves nothing behind. Throws UsageError for a target the user must change.
 */
export async function writeCheckpointTree(
  checkpoint: Checkpoint,
  kind: TreeKind,
  dir: string,
  options: WriteTreeOptions = {},
): Promise<void> {
  const target = path.resolve(dir);
  const replaceEmptyDir = await checkTargetDir(target);
  const files = await treeFiles(checkpoint, kind, options.files ?? {});
  const packages = workspacePackages(files);

  const tmp = await makeTempSibling(target);
  const links: string[] = [];
  try {
    for (const [relative, content] of files) await writeFileIn(tmp, relative, content);
    await writeFileIn(tmp, "tsconfig.json", `${JSON.stringify(rootTsconfig(packages), null, 2)}\n`);
    const toolchain = await toolchainPackages(packages);
    const rootJson = rootPackageJson(treePackageName(checkpoint, kind), target, packages, toolchain);
    // `npm run verify` inside a practice tree checks that tree (verify finds the tree it is run in).
    if (kind === "practice") Object.assign((rootJson as { scripts: object }).scripts, { verify: verifyScript() });
    await writeFileIn(tmp, "package.json", `${JSON.stringify(rootJson, null, 2)}\n`);
    await linkNodeModules(tmp, target, packages, toolchain, links);
    await moveIntoPlace(tmp, target, replaceEmptyDir, options.rename);
  } catch (error) {
    await removeTree(tmp, links);
    throw error;
  }
  // mkdtemp made the folder 0700; give the learner's directory ordinary permissions.
  await fs.chmod(target, 0o755);
}

/** The workspace-root package name of a `kind` tree of `checkpoint`: it tells such a tree from any other folder. */
export function treePackageName(checkpoint: Checkpoint, kind: TreeKind): string {
  return `pi-course-${kind}-${checkpoint.id}`;
}

/** The repository-relative files of a tree with their contents, in a stable order. */
export async function treeFiles(
  checkpoint: Checkpoint,
  kind: TreeKind,
  extra: Record<string, string> = {},
): Promise<Map<string, string>> {
  const sources =
    kind === "parent" ? checkpoint.parent.paths : [...checkpoint.parent.paths, ...checkpoint.target.paths];
  const files = new Map<string, string>();
  for (const relative of SHARED_ROOT_FILES)
    files.set(relative, await fs.readFile(path.join(repoRoot, relative), "utf8"));
  for (const source of sources) {
    for (const relative of await listFiles(source)) {
      files.set(relative, await fs.readFile(path.join(repoRoot, relative), "utf8"));
    }
  }
  if (kind === "practice") {
    for (const [teaching, starter] of Object.entries(checkpoint.starters)) {
      files.set(teaching, await fs.readFile(path.join(repoRoot, starter), "utf8"));
    }
  }
  for (const [relative, content] of Object.entries(extra)) files.set(treeRelative(relative), content);
  for (const [relative, content] of files) {
    if (path.posix.basename(relative) === "package.json") files.set(relative, withoutRepoScripts(content));
  }
  return files;
}

/** A repository-relative file or folder → the repository-relative files under it (posix separators). */
async function listFiles(relative: string): Promise<string[]> {
  const source = toPosix(relative);
  const stat = await fs.stat(path.join(repoRoot, relative));
  return stat.isFile() ? [source] : filesUnder(repoRoot, source, isExcluded);
}

/** A path for `options.files`: relative, inside the tree, posix separators. */
function treeRelative(relative: string): string {
  const normalized = path.posix.normalize(toPosix(relative));
  if (path.isAbsolute(relative) || normalized === "." || normalized.startsWith("../")) {
    throw new Error(`tree file path must be relative and inside the tree: "${relative}"`);
  }
  return normalized;
}

/**
 * Package scripts that call the repository's own tooling (`../../scripts/…`, e.g. `checkpoint`)
 * cannot run inside a tree, which has no scripts/ folder: drop them, keep the rest (build).
 * `verify` is kept, pointed at the repository's verify, so the card's command works in a tree too.
 */
function withoutRepoScripts(content: string): string {
  const json = JSON.parse(content) as { scripts?: Record<string, string> };
  if (json.scripts === undefined) return content;
  const kept = Object.entries(json.scripts).flatMap(([name, command]): [string, string][] => {
    if (!/(^|[\s"'/])scripts\//.test(command)) return [[name, command]];
    return name === "verify" ? [[name, verifyScript()]] : [];
  });
  if (
    kept.every(([name, command]) => json.scripts?.[name] === command) &&
    kept.length === Object.keys(json.scripts).length
  )
    return content;
  json.scripts = Object.fromEntries(kept);
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The repository's verify, run by the repository's tsx, as a script a tree's package.json can hold. */
function verifyScript(): string {
  const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs");
  return `node "${tsx}" "${path.join(repoRoot, "scripts", "verify.ts")}"`;
}
