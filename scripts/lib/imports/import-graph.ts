// The relative imports between the repository's own TypeScript files, read from their source text:
// `import … from`, `export … from`, `import "…"` and `import("…")`, type-only imports included
// (two files whose types name each other are read, taught and changed together all the same).
// Imports of packages (`@pi/core`, `node:fs`) are left out: tsc -b's project references already
// refuse a cycle between workspace packages.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Folders never walked: installed and built code, and trees that are not modules where they lie. */
const SKIPPED = new Set(["node_modules", "dist", ".git"]);

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** Source text without comments, so an import shown in a comment is not read as one. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The module specifiers `source` imports or re-exports, in order of appearance. */
export function importSpecifiers(source: string): string[] {
  return [...withoutComments(source).matchAll(SPECIFIER)].map((match) => match[1] ?? "");
}

/** The file a relative specifier in `from` names (`./x.js` is `./x.ts`, a folder its index), or undefined. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(?:js|mjs|cjs|jsx)$/, "");
  const candidates = [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, base, path.join(base, "index.ts")];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The `.ts` files under `dir`, except in `SKIPPED` folders and those `skip` names (absolute paths). */
export function sourceFiles(dir: string, skip: (dir: string) => boolean = () => false): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !skip(full)) files.push(...sourceFiles(full, skip));
    } else if (/\.(?:ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      files.push(full);
    }
  }
  return files;
}

/** Each file of `files` → the files among them it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(readFileSync(file, "utf8"))
      .map((specifier) => resolveRelative(file, specifier))
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}
