// Where a new tree may go: not inside the course repository outside practice/. A tree under
// packages/ would be compiled by the main build; one elsewhere in the repository (`practice 07 07`
// makes `07/` at the root) clutters the course. `--force` lets a learner who means it go ahead.
import { realpathSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../course/manifest.js";
import { UsageError } from "../usage-error.js";
import { practiceRoot } from "../user-paths.js";

/** `dir` with its nearest existing ancestor's links resolved, so a link cannot hide where it is. */
function realTarget(dir: string): string {
  const rest: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest);
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(dir);
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

function isInside(dir: string, root: string): boolean {
  const relative = path.relative(root, dir);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Throws a UsageError for a target inside the repository but outside practice/, unless `force`. */
export function refuseInsideRepository(dir: string, force: boolean, flag = "--force"): void {
  if (force) return;
  const target = realTarget(dir);
  const repo = realTarget(repoRoot);
  if (!isInside(target, repo)) return;
  const practice = realTarget(practiceRoot);
  if (isInside(target, practice) && target !== practice) return;
  const where = isInside(target, path.join(repo, "packages"))
    ? "在 packages/ 里，主仓库的构建会把它当作课程源码一起编译"
    : "在课程仓库里、practice/ 之外";
  throw new UsageError(
    `${dir} ${where}：请放到 practice/ 下（例如 practice/my-07）或仓库之外；确实要放在这里时加 ${flag}。`,
  );
}
