// Lab 12.1 · 根与优先级: the ordered folders resources come from.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { isInside } from "../tools/workspace-path.js";
import type { ResourceRoot } from "./types.js";

/**
 * The roots in precedence order, lowest first: the global folder, then each ancestor of the
 * workspace from the outermost (`stopAt`, or the filesystem root) inwards, then the workspace.
 * Every folder is known by its real path; a global folder that does not exist is left out.
 */
export function resourceRoots(options: { globalDir?: string; workspace: string; stopAt?: string }): ResourceRoot[] {
  const workspace = realDir(options.workspace, "工作区");
  const stopAt = options.stopAt === undefined ? path.parse(workspace).root : realDir(options.stopAt, "stopAt");
  if (!isInside(stopAt, workspace)) {
    throw new Error(`stopAt ${stopAt} 不是工作区 ${workspace} 或它的上级目录：给工作区所在的仓库根目录`);
  }
  const ancestors: ResourceRoot[] = [];
  for (let dir = path.dirname(workspace); isInside(stopAt, dir) && dir !== workspace; dir = path.dirname(dir)) {
    ancestors.unshift({ kind: "ancestor", dir });
    if (dir === stopAt) break;
  }
  const global: ResourceRoot[] =
    options.globalDir !== undefined && existsSync(options.globalDir)
      ? [{ kind: "global", dir: realDir(options.globalDir, "全局目录") }]
      : [];
  return [...global, ...ancestors, { kind: "workspace", dir: workspace }];
}

function realDir(dir: string, what: string): string {
  try {
    return realpathSync(path.resolve(dir));
  } catch {
    throw new Error(`${what} ${dir} 不存在：创建它，或给一个存在的目录`);
  }
}
