// Given (not a lab): the shapes of chapter 12's resources. Every directory is a parameter: nothing
// here reads process.env, the home folder or the terminal.

export type RootKind = "global" | "ancestor" | "workspace";

/** A folder resources are read from; `dir` is absolute and a real path. */
export interface ResourceRoot {
  kind: RootKind;
  dir: string;
}

export type ResourceKind = "context" | "skill" | "template" | "extension";

export interface Resource {
  kind: ResourceKind;
  /** context: "AGENTS.md" | "CLAUDE.md"; skill: its front-matter name; template: the file stem; extension: the file name. */
  name: string;
  root: ResourceRoot;
  /** The real path of the file (SKILL.md for a skill). */
  path: string;
  /** Skills: the front-matter description. */
  description?: string;
}

export interface Shadowing {
  winner: Resource;
  shadowed: Resource;
}

/** One Chinese line naming a problem and where it is. */
export interface Diagnostic {
  source: string;
  message: string;
}

export interface Catalogue {
  /** Skills, templates and extensions: winners only, listed by (kind, name). */
  resources: Resource[];
  /** Every context file in root order: context files do not shadow, all apply, outermost first. */
  contextFiles: Resource[];
  shadowed: Shadowing[];
  /** Files that were found but could not be read as a resource (a bad SKILL.md); they are left out. */
  diagnostics: Diagnostic[];
}

/** Where a root keeps each kind of resource, relative to the root's folder. */
export interface ResourceLayout {
  skillDirs: string[];
  promptDirs: string[];
  extensionDirs: string[];
  contextFiles: string[];
}
