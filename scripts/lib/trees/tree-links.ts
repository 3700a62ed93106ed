// The node_modules of a tree, made of links instead of copies: the toolchain and the packages'
// external dependencies link into the main tree's node_modules, node_modules/@pi/* link to the
// tree's own packages, and node_modules/.bin holds a command for each linked package's bins.
import fs from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "../course/manifest.js";
import { UsageError } from "../usage-error.js";
import { ensureDir } from "./tree-fs.js";
import type { ToolchainPackage, WorkspacePackage } from "./tree-root.js";

/** Packages every tree needs to build and type-check, whatever its packages depend on. */
const TOOLCHAIN = ["typescript", "@types/node"];

export interface LinkedPackage extends ToolchainPackage {
  version: string;
  /** Command name → path of its script, relative to the package. */
  bin: Record<string, string>;
}

/** The toolchain plus every external dependency of the tree's packages, as installed in the main tree. */
export async function toolchainPackages(packages: WorkspacePackage[]): Promise<LinkedPackage[]> {
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

/**
 * Fills node_modules of the tree being built in `tmp`, which will be renamed to `finalRoot`.
 * Every link made is pushed to `links` (so a failed write can remove them without following).
 */
export async function linkNodeModules(
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
        await fs.writeFile(`${binPath}.cmd`, cmdShim(scriptPath));
      } else {
        await fs.symlink(scriptPath, binPath, "file");
        links.push(binPath);
      }
    }
  }
}

/**
 * The Windows `.bin/<command>.cmd` that runs `scriptPath` with whichever `node` is on PATH, as
 * npm's own shims do: a folder made before a Node upgrade or an nvm switch keeps working.
 */
export function cmdShim(scriptPath: string): string {
  return `@node "${scriptPath}" %*\r\n`;
}

async function linkDirectory(root: string, relative: string, linkTarget: string, links: string[]): Promise<void> {
  const parts = relative.split("/");
  await ensureDir(root, parts.slice(0, -1).join("/"));
  const linkPath = path.join(root, ...parts);
  await fs.symlink(linkTarget, linkPath, process.platform === "win32" ? "junction" : "dir");
  links.push(linkPath);
}
