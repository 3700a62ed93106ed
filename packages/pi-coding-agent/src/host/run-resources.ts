// The resources of one tiny-pi run: the roots (~/.tiny-pi, each folder from the repository root
// down to the workspace, the workspace), what chapter 12's discovery finds in them with tiny-pi's
// folder layout, and the context files read for the system prompt. Nothing here imports an
// extension: run-extensions.ts does that, behind the trust gate.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { errorMessageOf } from "@pi/core";
import type { Catalogue, Resource, ResourceLayout, ResourceRoot } from "../index.js";
import { RunError } from "./errors.js";
import type { ResourceCode } from "./resource-code.js";

export const CONTEXT_FILES = ["AGENTS.md", "CLAUDE.md"];

/**
 * Where each root keeps its resources. ~/.tiny-pi holds them directly (skills/, prompts/, extensions/);
 * a project folder holds them in .tiny-pi/ (and skills also in .agents/skills/, as other agents do).
 * Extensions come only from the workspace and ~/.tiny-pi: an ancestor's code never runs.
 */
export function tinyPiLayout(root: ResourceRoot): ResourceLayout {
  if (root.kind === "global") {
    return {
      contextFiles: CONTEXT_FILES,
      skillDirs: ["skills"],
      promptDirs: ["prompts"],
      extensionDirs: ["extensions"],
    };
  }
  return {
    contextFiles: CONTEXT_FILES,
    skillDirs: [".tiny-pi/skills", ".agents/skills"],
    promptDirs: [".tiny-pi/prompts"],
    extensionDirs: root.kind === "workspace" ? [".tiny-pi/extensions"] : [],
  };
}

export interface RunResources {
  roots: ResourceRoot[];
  catalogue: Catalogue;
  /** The context files that go into the system prompt, in order, as read (none with --no-context-files). */
  contextFiles: { path: string; content: string }[];
  skills: Resource[];
  templates: Resource[];
  extensions: Resource[];
  /** One Chinese line per problem (a SKILL.md that does not parse, an unreadable context file); the run goes on. */
  problems: string[];
}

export interface ResourceOptions {
  workspace: string;
  /** The user's tiny-pi folder (tiny-pi-home.ts). */
  home: string;
  /** false: --no-context-files. */
  contextFiles: boolean;
}

/** The nearest folder from `workspace` up that holds .git (a folder, or a worktree's file); undefined: none. */
export function repositoryRoot(workspace: string): string | undefined {
  for (let dir = path.resolve(workspace); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function loadRunResources(code: ResourceCode, options: ResourceOptions): RunResources {
  let roots: ResourceRoot[];
  let catalogue: Catalogue;
  try {
    const stopAt = repositoryRoot(options.workspace);
    roots = code.resourceRoots({
      globalDir: options.home,
      workspace: options.workspace,
      ...(stopAt !== undefined ? { stopAt } : {}),
    });
    catalogue = code.discoverResources(roots, tinyPiLayout);
  } catch (error) {
    throw new RunError(`读取资源（AGENTS.md、技能、模板、扩展）时出错：${errorMessageOf(error).split("\n")[0]}`);
  }
  const problems = (catalogue.diagnostics ?? []).map((diagnostic) => `（跳过：${diagnostic.message}）`);
  const contextFiles: { path: string; content: string }[] = [];
  for (const file of options.contextFiles ? catalogue.contextFiles : []) {
    try {
      contextFiles.push({ path: file.path, content: readFileSync(file.path, "utf8") });
    } catch (error) {
      problems.push(`（跳过上下文文件 ${file.path}：读不出来，${errorMessageOf(error)}）`);
    }
  }
  const of = (kind: Resource["kind"]) => catalogue.resources.filter((resource) => resource.kind === kind);
  const skills = of("skill");
  return {
    roots,
    catalogue,
    contextFiles,
    skills,
    templates: of("template"),
    extensions: of("extension"),
    problems,
  };
}
