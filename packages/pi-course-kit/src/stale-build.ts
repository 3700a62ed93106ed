// Whether a package's build output is what its sources compile to now, judged by content. File
// times would not do: `tsc -b` leaves the output alone when a source is older than it, as after a
// `cp -p`, a restore from a backup or an editor's undo, although its content changed.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The first source file (under src/ and test/) that differs from what the last successful build
 * compiled, relative to the package `packageDir`, or undefined when every one matches. Each
 * source map carries its source (inlineSources); a source without one counts as differing.
 */
export async function staleSource(packageDir: string): Promise<string | undefined> {
  for (const folder of ["src", "test"]) {
    for (const relative of await tsFilesUnder(path.join(packageDir, folder))) {
      const source = path.join(packageDir, folder, relative);
      const map = path.join(packageDir, "dist", folder, relative.replace(/\.ts$/, ".js.map"));
      if ((await compiledSource(map)) !== (await readFile(source, "utf8"))) {
        return path.posix.join(folder, relative.split(path.sep).join("/"));
      }
    }
  }
  return undefined;
}

async function compiledSource(map: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(map, "utf8")) as { sourcesContent?: string[] }).sourcesContent?.[0];
  } catch {
    return undefined;
  }
}

/** TypeScript sources under `dir`, relative to it, sorted; empty when there is no such folder. */
async function tsFilesUnder(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await tsFilesUnder(dir, relative)));
    else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(relative);
  }
  return files.sort();
}
