// The workspace root of a tree: its packages (each folder with a package.json), and the root
// package.json and tsconfig.json that make it a workspace of its own.
import path from "node:path";
import { toPosix } from "./tree-fs.js";

export interface WorkspacePackage {
  /** The package folder, relative to the tree root (posix), e.g. `packages/pi-core`. */
  folder: string;
  name: string;
  /** Every dependency named in its package.json (dependencies, devDependencies, peerDependencies). */
  dependencies: string[];
}

/** An installed package a tree links to, as `file:` devDependency of its root. */
export interface ToolchainPackage {
  name: string;
  /** Real path of the installed package in the main tree's node_modules. */
  realPath: string;
}

/** The packages of the tree: each folder among the files that has a package.json. */
export function workspacePackages(files: Map<string, string>): WorkspacePackage[] {
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

/**
 * The root tsconfig.json: no files of its own, a reference to each package under packages/. A tree
 * with no package yet (the first checkpoint's parent) says `include: []` instead, the form tsc -b
 * accepts as "nothing to build" (an empty `files` list with no references is error TS18002).
 */
export function rootTsconfig(packages: WorkspacePackage[]): object {
  const references = packages.filter((pkg) => pkg.folder.startsWith("packages/")).map((pkg) => ({ path: pkg.folder }));
  return references.length === 0 ? { include: [], references } : { files: [], references };
}

/**
 * The tree's own workspace root package.json, named `name`, for a tree that will live at `target`.
 * The toolchain is declared as `file:` devDependencies so that a later `npm install` inside the
 * tree recreates the links (junctions and .cmd shims on Windows) instead of pruning them.
 */
export function rootPackageJson(
  name: string,
  target: string,
  packages: WorkspacePackage[],
  toolchain: ToolchainPackage[],
): object {
  const devDependencies = Object.fromEntries(
    toolchain.map((pkg) => [pkg.name, `file:${fileSpec(target, pkg.realPath)}`]),
  );
  return {
    name,
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
