// Checkpoint 12 · 学习脚手架：ResourceRoot 的形状在 types.ts；realDir() 与第 08 章的 isInside() 已经写好。
// Lab 12.1 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③（本文件）与 catalogue.ts 的 ④ → ⑤ 完成 `// Lab 12.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="资源的根" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
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
  // Lab 12.1 ①：工作区与 stopAt 都用 realDir() 换成真实路径（没给 stopAt 就是工作区所在文件系统的根，
  // path.parse(workspace).root）。stopAt 不是工作区或它的上级（isInside，不比字符串前缀：/x/re 不是 /x/repo
  // 的上级）就一行报错：
  // `stopAt ${stopAt} 不是工作区 ${workspace} 或它的上级目录：给工作区所在的仓库根目录`（两个都是真实路径）。
  // Lab 12.1 ②：从工作区的上一级开始往外走，直到 stopAt（含）为止，每一层是一个 ancestor 根；
  // 走的方向是从里往外，结果要从外往里（最外层在前），用 unshift。stopAt 就是工作区时没有 ancestor 根：
  // 结果只有（global 与）workspace 一个工作区根。
  // Lab 12.1 ③：给了 globalDir 且它存在时，它是第一个根（global）；工作区是最后一个（workspace）。
  throw new Error("Lab 12.1 根与优先级 尚未实现");
}

function realDir(dir: string, what: string): string {
  try {
    return realpathSync(path.resolve(dir));
  } catch {
    throw new Error(`${what} ${dir} 不存在：创建它，或给一个存在的目录`);
  }
}
