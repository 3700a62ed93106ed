// Given (not a lab): reading each root's folders into resources. Only front matter is kept from a
// SKILL.md; the body is read again, and only, when the skill is activated.
import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { errorMessageOf } from "@pi/core";
import { buildCatalogue } from "./catalogue.js";
import { parseSkillFile } from "./skills.js";
import type { Catalogue, Diagnostic, Resource, ResourceLayout, ResourceRoot } from "./types.js";

/** The plain layout: <dir>/AGENTS.md, <dir>/CLAUDE.md, <dir>/skills/<name>/SKILL.md, <dir>/prompts/*.md, <dir>/extensions/*. */
export const DEFAULT_LAYOUT: ResourceLayout = {
  contextFiles: ["AGENTS.md", "CLAUDE.md"],
  skillDirs: ["skills"],
  promptDirs: ["prompts"],
  extensionDirs: ["extensions"],
};

const EXTENSION_FILE = /\.(js|mjs|ts)$/;

/**
 * Every resource of every root, in root order, made into a catalogue. `layout` maps the folders:
 * one layout for every root, or one per root (tiny-pi keeps ~/.tiny-pi/skills but <dir>/.tiny-pi/skills).
 * A missing folder is simply empty; a SKILL.md that cannot be parsed is left out with a diagnostic.
 */
export function discoverResources(
  roots: readonly ResourceRoot[],
  layout: ResourceLayout | ((root: ResourceRoot) => ResourceLayout) = DEFAULT_LAYOUT,
): Catalogue {
  const found: Resource[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const root of roots) {
    const folders = typeof layout === "function" ? layout(root) : layout;
    for (const name of folders.contextFiles) {
      const file = path.join(root.dir, name);
      if (isFile(file)) found.push({ kind: "context", name, root, path: realpathSync(file) });
    }
    for (const dir of folders.skillDirs) {
      for (const entry of entries(path.join(root.dir, dir))) {
        const file = path.join(root.dir, dir, entry.name, "SKILL.md");
        if (!isFile(file)) continue;
        try {
          const { name, description } = parseSkillFile(readFileSync(file, "utf8"), file);
          found.push({ kind: "skill", name, description, root, path: realpathSync(file) });
        } catch (error) {
          diagnostics.push({ source: file, message: errorMessageOf(error) });
        }
      }
    }
    for (const dir of folders.promptDirs) {
      for (const entry of entries(path.join(root.dir, dir))) {
        const file = path.join(root.dir, dir, entry.name);
        if (entry.name.endsWith(".md") && isFile(file)) {
          found.push({ kind: "template", name: entry.name.slice(0, -3), root, path: realpathSync(file) });
        }
      }
    }
    for (const dir of folders.extensionDirs) {
      for (const entry of entries(path.join(root.dir, dir))) {
        const file = path.join(root.dir, dir, entry.name);
        if (EXTENSION_FILE.test(entry.name) && isFile(file)) {
          found.push({ kind: "extension", name: entry.name, root, path: realpathSync(file) });
        }
      }
    }
  }
  return buildCatalogue(found, diagnostics);
}

/** A folder's entries by name (code-unit order), or none when it does not exist. */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** A regular file, possibly through a symlink (its real path is what is recorded). */
function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
