// What can be wrong with a practice tree before it is built, told as one line naming the fix
// instead of npm's or the compiler's error: a package.json that is not JSON, the focused test's
// source gone, node_modules links missing (an `npm install` elsewhere, a copy that dropped them).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { practiceCommand } from "../commands.js";
import type { Checkpoint } from "../course/manifest.js";
import { UsageError } from "../usage-error.js";

/** The parsed `<dir>/<relative>` package.json; undefined when missing; a UsageError when not JSON. */
export function readTreePackageJson(
  dir: string,
  checkpoint: Checkpoint,
  relative = "package.json",
): Record<string, unknown> | undefined {
  const file = path.join(dir, ...relative.split("/"));
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(
      `${file} 不是合法的 JSON（${(error as Error).message}）：请修好这个文件（例如撤销最近的改动），或用 ${practiceCommand(checkpoint)} 新建一个练习目录。`,
    );
  }
}

/** Throws a one-line UsageError for the first problem of the practice tree `dir` that a build would hide. */
export function checkPracticeTree(dir: string, checkpoint: Checkpoint): void {
  const make = practiceCommand(checkpoint);
  const root = readTreePackageJson(dir, checkpoint) ?? {};
  const folders = Array.isArray(root.workspaces) ? (root.workspaces as string[]) : [];
  const names = folders.map((folder) => readTreePackageJson(dir, checkpoint, `${folder}/package.json`)?.name);
  if (!existsSync(path.join(dir, ...checkpoint.focusedTest.split("/")))) {
    throw new UsageError(
      `练习目录里没有聚焦测试的源文件 ${checkpoint.focusedTest}：请从备份恢复它，或用 ${make} 新建一个练习目录，再把你写好的 ${checkpoint.teachingFiles.join("、")} 复制过去。`,
    );
  }
  const linked = [...Object.keys((root.devDependencies as object | undefined) ?? {}), ...names];
  const missing = linked.filter(
    (name) => typeof name === "string" && !existsSync(path.join(dir, "node_modules", ...name.split("/"))),
  );
  if (missing.length > 0) {
    throw new UsageError(
      `这个练习目录的 node_modules 链接缺失（${missing.join("、")}）：请用 ${make} 重新创建它，再把你写好的 ${checkpoint.teachingFiles.join("、")} 复制过去。`,
    );
  }
}
