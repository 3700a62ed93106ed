// Writes a checkpoint as a complete, buildable, isolated workspace:
//   parent   = the parent's paths (the course at the end of the previous chapter)
//   target   = parent + the target's paths (the chapter's finished code and focused tests)
//   practice = target with each teaching file replaced by its starter
// Each tree has its own workspace root (package.json with `workspaces`, tsconfig.json with
// references), links the shared toolchain from the main node_modules instead of copying it,
// and links node_modules/@pi/* to its own packages. dist/ and *.tsbuildinfo are never copied.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type Checkpoint, repoRoot } from "./manifest.js";
import { UsageError } from "./usage-error.js";

export type TreeKind = "parent" | "target" | "practice";

export interface WriteTreeOptions {
  /** Repository-relative path → content; replaces or adds files (mutants, extra tests). */
  files?: Record<string, string>;
}

/** Packages every tree needs to build and type-check, whatever its packages depend on. */
const TOOLCHAIN = ["typescript", "@types/node"];

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
  const packages = await workspacePackages(files);

  const tmp = await makeTempSibling(target);
  const links: string[] = [];
  try {
    for (const [relative, content] of files) await writeFileIn(tmp, relative, content);
    await writeFileIn(tmp, "tsconfig.json", `${JSON.stringify(rootTsconfig(packages), null, 2)}\n`);
    const toolchain = await toolchainPackages(packages);
    await writeFileIn(
      tmp,
      "package.json",
      `${JSON.stringify(rootPackageJson(checkpoint, kind, target, packages, toolchain), null, 2)}\n`,
    );
    await linkNodeModules(tmp, target, packages, toolchain, links);
    if (replaceEmptyDir) await fs.rmdir(target);
    await fs.rename(tmp, target);
  } catch (error) {
    await removeTree(tmp, links);
    throw error;
  }
  // mkdtemp made the folder 0700; give the learner's directory ordinary permissions.
  await fs.chmod(target, 0o755);
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
  const absolute = path.join(repoRoot, relative);
  const stat = await fs.stat(absolute);
  if (stat.isFile()) return [toPosix(relative)];
  const found: string[] = [];
  for (const entry of await fs.readdir(absolute, { withFileTypes: true })) {
    if (isExcluded(entry.name)) continue;
    const child = path.posix.join(toPosix(relative), entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(child)));
    else if (entry.isFile()) found.push(child);
  }
  return found.sort();
}

/** A path for `options.files`: relative, inside the tree, posix separators. */
function treeRelative(relative: string): string {
  const normalized = path.posix.normalize(toPosix(relative));
  if (path.isAbsolute(relative) || normalized === "." || normalized.startsWith("../")) {
    throw new Error(`tree file path must be relative and inside the tree: "${relative}"`);
  }
  return normalized;
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}

/**
 * Package scripts that call the repository's own tooling (`../../scripts/…`, e.g. `checkpoint`)
 * cannot run inside a tree, which has no scripts/ folder: drop them, keep the rest (build).
 */
function withoutRepoScripts(content: string): string {
  const json = JSON.parse(content) as { scripts?: Record<string, string> };
  if (json.scripts === undefined) return content;
  const kept = Object.entries(json.scripts).filter(([, command]) => !/(^|[\s"'/])scripts\//.test(command));
  if (kept.length === Object.keys(json.scripts).length) return content;
  json.scripts = Object.fromEntries(kept);
  return `${JSON.stringify(json, null, 2)}\n`;
}

interface WorkspacePackage {
  /** The package folder, relative to the tree root (posix), e.g. `packages/pi-core`. */
  folder: string;
  name: string;
  /** Every dependency named in its package.json (dependencies, devDependencies, peerDependencies). */
  dependencies: string[];
}

/** The packages of the tree: each folder among the files that has a package.json. */
async function workspacePackages(files: Map<string, string>): Promise<WorkspacePackage[]> {
  const packages: WorkspacePackage[] = [];
  for (const [relative, content] of files) {
    if (path.posix.basename(relative) !== "package.json" || path.posix.dirname(relative) === ".") continue;
    const json = JSON.parse(content) as { name: string } & Record<string, Record<string, string> | undefined>;
    const dependencies = ["dependencies", "devDependencies", "peerDependencies"].flatMap((field) =>
      Object.keys(json[field] ?? {}),
    );
    packages.push({ folder: path.posix.dirname(relative), name: json.name, dependencies });
  }
  return packages;
}

interface LinkedPackage {
  name: string;
  /** Real path of the installed package in the main tree's node_modules. */
  realPath: string;
  version: string;
  /** Command name → path of its script, relative to the package. */
  bin: Record<string, string>;
}

/** The toolchain plus every external dependency of the tree's packages, as installed in the main tree. */
async function toolchainPackages(packages: WorkspacePackage[]): Promise<LinkedPackage[]> {
  const own = new Set(packages.map((pkg) => pkg.name));
  const names = [...new Set([...TOOLCHAIN, ...packages.flatMap((pkg) => pkg.dependencies)])].filter(
    (name) => !own.has(name),
  );
  const linked: LinkedPackage[] = [];
  for (const name of names.sort()) {
    const installed = path.join(repoRoot, "node_modules", ...name.split("/"));
    let realPath: string;
    try {
      realPath = await fs.realpath(installed);
    } catch {
      throw new UsageError(`缺少依赖 ${name}：请先在仓库根目录 ${repoRoot} 运行 npm install。`);
    }
    const json = JSON.parse(await fs.readFile(path.join(realPath, "package.json"), "utf8")) as {
      version: string;
      bin?: string | Record<string, string>;
    };
    const bin = typeof json.bin === "string" ? { [name.split("/").pop() ?? name]: json.bin } : (json.bin ?? {});
    linked.push({ name, realPath, version: json.version, bin });
  }
  return linked;
}

function rootTsconfig(packages: WorkspacePackage[]): object {
  const references = packages.filter((pkg) => pkg.folder.startsWith("packages/")).map((pkg) => ({ path: pkg.folder }));
  return { files: [], references };
}

/** The workspace-root package name of a `kind` tree of `checkpoint`: it tells such a tree from any other folder. */
export function treePackageName(checkpoint: Checkpoint, kind: TreeKind): string {
  return `pi-course-${kind}-${checkpoint.id}`;
}

/**
 * The tree's own workspace root. The toolchain is declared as `file:` devDependencies so that a
 * later `npm install` inside the tree recreates the links (junctions and .cmd shims on Windows)
 * instead of pruning them.
 */
function rootPackageJson(
  checkpoint: Checkpoint,
  kind: TreeKind,
  target: string,
  packages: WorkspacePackage[],
  toolchain: LinkedPackage[],
): object {
  const devDependencies = Object.fromEntries(
    toolchain.map((pkg) => [pkg.name, `file:${fileSpec(target, pkg.realPath)}`]),
  );
  return {
    name: treePackageName(checkpoint, kind),
    private: true,
    type: "module",
    workspaces: packages.map((pkg) => pkg.folder),
    scripts: { build: "tsc -b" },
    devDependencies,
  };
}

/** A `file:` path from the tree root to `realPath`: relative when possible, posix separators. */
function fileSpec(treeRoot: string, realPath: string): string {
  const relative = path.relative(treeRoot, realPath);
  return toPosix(path.isAbsolute(relative) ? realPath : relative);
}

/** node_modules of the tree: toolchain links into the main tree, @pi/* links to the tree's own packages. */
async function linkNodeModules(
  tmp: string,
  finalRoot: string,
  packages: WorkspacePackage[],
  toolchain: LinkedPackage[],
  links: string[],
): Promise<void> {
  await ensureDir(tmp, "node_modules");
  for (const pkg of toolchain) {
    await linkDirectory(tmp, `node_modules/${pkg.name}`, pkg.realPath, links);
  }
  for (const pkg of packages) {
    const relative = `node_modules/${pkg.name}`;
    // Inside the tree the link must survive the rename: relative on posix; a junction (which
    // needs an absolute target) points at the final location.
    const linkTarget =
      process.platform === "win32"
        ? path.join(finalRoot, pkg.folder)
        : path.relative(path.dirname(path.join(tmp, relative)), path.join(tmp, pkg.folder));
    await linkDirectory(tmp, relative, linkTarget, links);
  }
  await ensureDir(tmp, "node_modules/.bin");
  for (const pkg of toolchain) {
    for (const [command, script] of Object.entries(pkg.bin)) {
      const scriptPath = path.join(pkg.realPath, script);
      const binPath = path.join(tmp, "node_modules", ".bin", command);
      if (process.platform === "win32") {
        await fs.writeFile(`${binPath}.cmd`, `@"${process.execPath}" "${scriptPath}" %*\r\n`);
      } else {
        await fs.symlink(scriptPath, binPath, "file");
        links.push(binPath);
      }
    }
  }
}

async function linkDirectory(root: string, relative: string, linkTarget: string, links: string[]): Promise<void> {
  const parts = relative.split("/");
  await ensureDir(root, parts.slice(0, -1).join("/"));
  const linkPath = path.join(root, ...parts);
  await fs.symlink(linkTarget, linkPath, process.platform === "win32" ? "junction" : "dir");
  links.push(linkPath);
}

/** Creates `relative` under `root` one folder at a time (never a recursive mkdir chain). */
async function ensureDir(root: string, relative: string): Promise<void> {
  let current = root;
  for (const part of relative.split("/").filter(Boolean)) {
    current = path.join(current, part);
    try {
      await fs.mkdir(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

async function writeFileIn(root: string, relative: string, content: string): Promise<void> {
  await ensureDir(root, path.posix.dirname(relative));
  await fs.writeFile(path.join(root, ...relative.split("/")), content);
}

/**
 * Checks that `target` can become a new tree: its parent folder exists, and `target` does not
 * exist or is an empty folder (then returns true: it is replaced by the rename).
 */
export async function checkTargetDir(target: string): Promise<boolean> {
  const parent = path.dirname(target);
  const parentStat = await fs.stat(parent).catch(() => undefined);
  if (parentStat === undefined) throw new UsageError(`上级目录不存在：${parent}。请先创建它，或换一个目录。`);
  if (!parentStat.isDirectory()) throw new UsageError(`${parent} 是文件，不是目录：请换一个目录。`);
  const stat = await fs.lstat(target).catch(() => undefined);
  if (stat === undefined) return false;
  if (!stat.isDirectory()) throw new UsageError(`${target} 已存在且不是目录：请换一个新目录名。`);
  if ((await fs.readdir(target)).length > 0) {
    throw new UsageError(`${target} 已存在且不为空：请换一个新目录名，或先移走其中的文件。`);
  }
  return true;
}

async function makeTempSibling(target: string): Promise<string> {
  const parent = path.dirname(target);
  try {
    await fs.access(parent, constants.W_OK);
    return await fs.mkdtemp(path.join(parent, `.${path.basename(target)}.tmp-`));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ENOENT" || code === "ENOTDIR") {
      throw new UsageError(`无法在 ${parent} 中写入（${code}）：请换一个有写权限的目录。`);
    }
    throw error;
  }
}

/**
 * Removes a half-made tree. The links are removed first, one by one and without following them,
 * so the recursive removal below can never reach the main node_modules.
 */
async function removeTree(tmp: string, links: string[]): Promise<void> {
  for (const link of links.reverse()) {
    await fs.unlink(link).catch(() => fs.rmdir(link).catch(() => undefined));
  }
  await fs.rm(tmp, { recursive: true, force: true });
}
