// `npm run practice -w @pi/course -- <id> [dir]`: a new isolated practice directory with the
// parent, the starter and the focused tests, and the commands to run next.

import { ensureDir } from "fs-extra/esm";
import { focusedCommand, verifyCommand } from "../commands.js";
import { type Checkpoint, findCheckpoint, focusedTestCount } from "../course/manifest.js";
import { compiledPath } from "../course/test-files.js";
import { TargetTakenError } from "../trees/fs-faults.js";
import { checkTargetDir } from "../trees/target-dir.js";
import { refuseInsideRepository } from "../trees/target-place.js";
import { type WriteTreeOptions, writeCheckpointTree } from "../trees/trees.js";
import { UsageError } from "../usage-error.js";
import { displayDir, invocationDir, nextPracticeDir, practiceRoot, resolveUserDir } from "../user-paths.js";
import { parseCli } from "./cli-args.js";
import { carryFrom } from "./practice-from.js";

/** The one-line synopsis, also the end of every argument error. */
export const practiceUsage = "npm run practice -w @pi/course -- <编号> [目录] [--from <上一章的练习目录>]";

export const practiceHelp = `用法：${practiceUsage}

从检查点的 parent 创建新的隔离练习目录：parent + starter（教学文件换成学习脚手架）+ 聚焦测试，
有自己的 workspace 根，链接主仓库的 typescript 与 @types/node，无需 npm install。

  <编号>   检查点编号，两位数字，例如 07（npm run checkpoint -w @pi/course 列出全部）
  [目录]   新目录：必须不存在或为空，其上级目录必须已经存在；相对路径从你运行 npm 的目录算起。
           默认 practice/07，已存在则 practice/07-2、practice/07-3……（practice/ 不存在时先创建它）
           课程仓库里只能放在 practice/ 下（packages/ 里的目录会被主仓库一起编译）
  --force  确实要把目录放在课程仓库里 practice/ 之外时使用
  --from <目录>
           从你完成的上一章练习目录继续：先确认它通过自己的全部聚焦测试，再用你写的教学文件
           代替参考实现；本章改动了其中的文件时，把改动应用到你的版本上。那个目录不会被改动。
           例如 npm run practice -w @pi/course -- 07 --from practice/06
  --help   显示本说明

Usage: npm run practice -w @pi/course -- <id> [dir] [--from <previous practice dir>]
  (dir defaults to practice/<id>, practice/<id>-2, …; --from carries your own teaching files forward)`;

export interface PracticeOutcome {
  dir: string;
  /** What to print: where the directory is and the commands to run next. */
  message: string;
}

/**
 * Parses the arguments, writes the practice directory, and says what to run next. Without a
 * directory the first free name under `root` is taken (`root` is made if missing); when another
 * run takes that name first, the next free one is tried.
 */
export async function practice(
  argv: string[],
  from: string = invocationDir(),
  root: string = practiceRoot,
): Promise<PracticeOutcome | "help"> {
  const { positionals, values } = parseCli(
    argv,
    { help: { type: "boolean", short: "h" }, force: { type: "boolean" }, from: { type: "string" } },
    practiceUsage,
  );
  if (values.help) return "help";
  const [id, dirArgument, ...rest] = positionals;
  if (id === undefined) {
    throw new UsageError("缺少检查点编号：请运行 npm run practice -w @pi/course -- 07（--help 查看用法）。");
  }
  if (rest.length > 0) throw new UsageError(`多余的参数 ${rest.join(" ")}：只需要 <编号> [目录]（--help 查看用法）。`);
  const checkpoint = findCheckpoint(id);
  const given = dirArgument === undefined ? undefined : resolveUserDir(dirArgument, from);
  if (given !== undefined) {
    refuseInsideRepository(given, values.force ?? false);
    // Refuse a taken directory before the slower check of the --from directory.
    if (values.from !== undefined) await checkTargetDir(given);
  }
  const carried = values.from === undefined ? undefined : await carryFrom(checkpoint, values.from, from);
  const options = { files: carried?.files ?? {}, learner: [...(carried?.learner ?? []), checkpoint.id] };
  let dir: string;
  if (given !== undefined) {
    await writeCheckpointTree(checkpoint, "practice", given, options);
    dir = given;
  } else {
    dir = await writeNextPracticeDir(checkpoint, root, options);
  }
  const message = nextSteps(checkpoint, dir, from);
  return { dir, message: carried === undefined ? message : [message, "", ...carried.note].join("\n") };
}

/** Writes the practice tree to the first free `root/07`, `root/07-2`, …; returns where. */
async function writeNextPracticeDir(checkpoint: Checkpoint, root: string, options: WriteTreeOptions): Promise<string> {
  // The repository root exists, so fs-extra's ensureDir makes only practice/ itself.
  await ensureDir(root);
  for (let attempt = 1; ; attempt += 1) {
    const dir = nextPracticeDir(checkpoint.id, root);
    try {
      await writeCheckpointTree(checkpoint, "practice", dir, options);
      return dir;
    } catch (error) {
      if (!(error instanceof TargetTakenError) || attempt >= 10) throw error;
    }
  }
}

/** Node 20 counts the tests a lab's pattern leaves out as skipped; said only when some lab leaves tests out. */
function skippedNote(checkpoint: Checkpoint, total: number): string[] {
  const lab = checkpoint.labs.find((candidate) => candidate.expected < total);
  if (lab === undefined) return [];
  const counts = `tests ${total}、pass ${lab.expected}、skipped ${total - lab.expected}`;
  return [
    `Node 20：--test-name-pattern 未选中的测试也计入 tests，显示为 skipped（例如 Lab ${lab.id} 完成后：${counts}）。`,
  ];
}

function nextSteps(checkpoint: Checkpoint, dir: string, from: string): string {
  const total = focusedTestCount(checkpoint);
  const labs = checkpoint.labs.map(
    (lab) => `  ${lab.id}  ${focusedCommand(checkpoint, lab.pattern)}   → ${lab.expected}/${lab.expected}`,
  );
  const teaching = checkpoint.teachingFiles.join("、");
  return [
    `已创建练习目录：${displayDir(dir, from)}`,
    `  Checkpoint ${checkpoint.id} · ${checkpoint.title}（${checkpoint.mode}）`,
    `  ${teaching} 是学习脚手架：公共表面已声明，${checkpoint.labs.length} 段 Lab 的分支仍抛出“尚未实现”。`,
    "",
    "下一步：",
    `  cd ${displayDir(dir, from)}`,
    `  ${checkpoint.build}`,
    `  ${focusedCommand(checkpoint)}`,
    `第一次红灯：${checkpoint.firstRed}（${total} 项测试全部失败）`,
    "",
    `按顺序完成 ${teaching} 中的 Lab，每段之后重新构建，只运行这一段的测试：`,
    ...labs,
    `全部完成：${focusedCommand(checkpoint)}   → ${total}/${total}`,
    "",
    `随时查看 ${checkpoint.labs.length} 段 Lab 的进度、第一条失败和提示：在练习目录里运行 npm run verify，或在这里运行`,
    `  ${verifyCommand(checkpoint, displayDir(dir, from))}   （加 --watch 在保存后自动重跑）`,
    "聚焦命令没有任何输出、一直不结束：多半是同步死循环，Node 无法打断它。按 Ctrl-C，改用 npm run verify，它会在时限后停止并指出。",
    "",
    ...skippedNote(checkpoint, total),
    `Windows cmd 不展开 *：请把文件名写全，例如 ${compiledPath(checkpoint.focusedTest)}。`,
  ].join("\n");
}
