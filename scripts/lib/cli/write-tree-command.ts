// `npm run checkpoint -w @pi/course -- <id> --write parent|target <dir>`: writes the tree where the
// learner asked (never inside the repository unless forced) and says how to build and test it. Its
// own file so the integrity checks (scripts/lib/prove) write trees through the learner's command
// without importing checkpoint-command.ts, which runs them for --prove.
import type { Checkpoint } from "../course/manifest.js";
import { compiledTestsOf } from "../course/test-files.js";
import { refuseInsideRepository } from "../trees/target-place.js";
import { type TreeKind, treeFiles, writeCheckpointTree } from "../trees/trees.js";
import { UsageError } from "../usage-error.js";
import { displayDir, resolveUserDir } from "../user-paths.js";

/** `--write <kind> <dirArgument>` of checkpoint `found`, `dirArgument` read from `from`; the lines to print. */
export async function writeTree(
  found: Checkpoint,
  kind: string,
  dirArgument: string | undefined,
  from: string,
  force: boolean,
) {
  if (kind !== "parent" && kind !== "target") {
    throw new UsageError(`--write 只接受 parent 或 target，收到 "${kind}"：例如 --write target ../target-07。`);
  }
  if (dirArgument === undefined)
    throw new UsageError(`--write ${kind} 需要一个新目录：例如 --write ${kind} ../${kind}-07。`);
  const dir = resolveUserDir(dirArgument, from);
  refuseInsideRepository(dir, force);
  await writeCheckpointTree(found, kind as TreeKind, dir);
  const build = kind === "parent" ? "npm run build" : found.build;
  const tests = kind === "parent" ? compiledTestsOf((await treeFiles(found, "parent")).keys()) : [found.focusedRun];
  return [
    `已写出 Checkpoint ${found.id} 的 ${kind}：${displayDir(dir, from)}`,
    "运行：",
    `  cd ${displayDir(dir, from)}`,
    `  ${build}`,
    tests.length === 0 ? "  （parent 没有测试文件）" : `  node --test ${tests.join(" ")}`,
  ].join("\n");
}
