// A tree holds only the packages its checkpoint names, so the package.json and tsconfig.json files
// it copies from the live tree are trimmed to what exists inside the tree:
//   - scripts that call the repository's own tooling (`../../scripts/…`) are dropped, but for
//     `verify`, which is pointed at the repository's verify (it checks the tree it runs in);
//   - dependencies on workspace packages the tree does not hold are dropped;
//   - tsconfig `references` to folders the tree does not hold are dropped.
// A file that needs no trimming is kept byte for byte.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../course/manifest.js";

type Json = Record<string, unknown>;

/** `files` with every package.json and tsconfig.json trimmed; `workspaceNames` are the live tree's own packages. */
export function trimPackageFiles(files: Map<string, string>, workspaceNames: Set<string>): Map<string, string> {
  const present = new Set<string>();
  const folders = new Set<string>();
  for (const [relative, content] of files) {
    if (path.posix.basename(relative) !== "package.json" || path.posix.dirname(relative) === ".") continue;
    present.add((JSON.parse(content) as { name: string }).name);
    folders.add(path.posix.dirname(relative));
  }
  const absent = new Set([...workspaceNames].filter((name) => !present.has(name)));
  const trimmed = new Map<string, string>();
  for (const [relative, content] of files) {
    const name = path.posix.basename(relative);
    if (name === "package.json") trimmed.set(relative, trimPackageJson(content, absent));
    else if (name === "tsconfig.json") trimmed.set(relative, trimTsconfig(relative, content, folders));
    else trimmed.set(relative, content);
  }
  return trimmed;
}

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

function trimPackageJson(content: string, absent: Set<string>): string {
  const json = JSON.parse(content) as Json;
  let changed = false;
  const scripts = json.scripts as Record<string, string> | undefined;
  if (scripts !== undefined) {
    // `verify` is kept, pointed at the repository's verify, so the card's command works in a tree too.
    const kept = Object.entries(scripts).flatMap(([name, command]): [string, string][] => {
      if (!/(^|[\s"'/])scripts\//.test(command)) return [[name, command]];
      return name === "verify" ? [[name, verifyScript()]] : [];
    });
    if (kept.length !== Object.keys(scripts).length || kept.some(([name, command]) => scripts[name] !== command)) {
      json.scripts = Object.fromEntries(kept);
      changed = true;
    }
  }
  for (const field of DEPENDENCY_FIELDS) {
    const dependencies = json[field] as Record<string, string> | undefined;
    if (dependencies === undefined) continue;
    const kept = Object.entries(dependencies).filter(([name]) => !absent.has(name));
    if (kept.length === Object.keys(dependencies).length) continue;
    json[field] = Object.fromEntries(kept);
    changed = true;
  }
  return changed ? `${JSON.stringify(json, null, 2)}\n` : content;
}

function trimTsconfig(relative: string, content: string, packageFolders: Set<string>): string {
  const json = JSON.parse(content) as Json;
  const references = json.references as { path: string }[] | undefined;
  if (references === undefined) return content;
  const here = path.posix.dirname(relative);
  const kept = references.filter((reference) => packageFolders.has(path.posix.join(here, reference.path)));
  if (kept.length === references.length) return content;
  json.references = kept;
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The names of the live tree's own packages (its root package.json's `workspaces`). */
export function workspaceNames(): Set<string> {
  const read = (relative: string) => JSON.parse(readFileSync(path.join(repoRoot, relative, "package.json"), "utf8"));
  const { workspaces = [] } = read(".") as { workspaces?: string[] };
  return new Set(workspaces.map((folder) => (read(folder) as { name: string }).name));
}

/** The repository's verify, run by the repository's tsx, as a script a tree's package.json can hold. */
export function verifyScript(): string {
  const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs");
  return `node "${tsx}" "${path.join(repoRoot, "scripts", "verify.ts")}"`;
}
