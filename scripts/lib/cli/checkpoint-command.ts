// `npm run checkpoint -w @pi/course -- [id] [--diff [parent] | --write parent|target <dir> | --diagnostic | --lab 7.N]`,
// and for maintainers `--check` and `<id> --record-before <path>`.

import { checkCourse } from "../course/check-course.js";
import { findCheckpoint, loadManifest } from "../course/manifest.js";
import { recordBefore } from "../course/record-before.js";
import { formatLabChanges } from "../diff/lab-regions.js";
import { parentDiffs, teachingDiffs } from "../diff/teaching-diff.js";
import { diagnosticReport, runDiagnostic } from "../mutation/diagnostic.js";
import { proveReport } from "../prove/prove-report.js";
import { newCheckpoint } from "../scaffold/new-checkpoint.js";
import { newRequest } from "../scaffold/new-request.js";
import { UsageError } from "../usage-error.js";
import { invocationDir } from "../user-paths.js";
import { checkpointCard } from "./checkpoint-card.js";
import { parseCli } from "./cli-args.js";
import { courseList } from "./course-list.js";
import { writeTree } from "./write-tree-command.js";

/** The one-line synopsis, also the end of every argument error. */
export const checkpointUsage =
  "npm run checkpoint -w @pi/course -- [编号] [--diff [parent] | --write parent|target <目录> | --diagnostic | --lab 7.N]";

export const checkpointHelp = `用法：npm run checkpoint -w @pi/course -- [编号] [选项]

  （无编号）                    按学习顺序列出整个课程，以及你最新的练习目录在每个检查点的进度（同 npm run course）
  07                            打印检查点卡片：parent 与 target、教学文件、命令、每段 Lab
  07 --diff                     教学文件从 starter 到 target 的 unified diff（默认）
                                （parent 里没有要重建的文件，所以从练习目录拿到的 starter 开始）
  07 --diff parent              教学文件与本章改动的其他已有文件从 parent 到 target 的 unified diff
                                （parent 里没有的文件显示为从 /dev/null 新增的整个文件）
  07 --write parent <目录>      写出 parent 的完整可构建树（第 06 章完成后的起点）
  07 --write target <目录>      写出 target 的完整可构建树（9 项聚焦测试通过的终点）
  07 --diagnostic               运行章节的诊断实验（也可用 npm run diagnostic -- 07）
  07 --lab 7.N                  starter → target 中属于 Lab 7.N 的改动（卡住时再看）
  --force                       与 --write 一起：确实要写到课程仓库里 practice/ 之外时使用
  --help                        显示本说明

维护者（添加章节时，docs/maintainers.md“添加章节”一节有完整的步骤）：
  --new 10 --title … --chapter … --package @pi/… --teaching <路径>[,…] [--changes <路径>[,…]] [--labs 3] [--test-name …]
                                新建检查点 10：清单条目、教学文件、starter、聚焦测试、指南、README 的一行与命令块，
                                以及 --changes 里每个已有文件的 before/；在终端里缺的选项会逐个询问
  --check                       全部静态检查（约 1 秒）：清单的 schema 与规则、快照、starter 的桩、Lab 的模式与测试名、
                                断言的规则说明、诊断的 find/replace、指南的各部分、README，以及还没填的“（待填写）”
  10 --prove                    检查点 10 的全部完整性检查：target、parent、starter 的第一次红灯、逐段 Lab、诊断、
                                练习目录的隔离、--from 上一章（需要的都会自己构建）
  08 --record-before <路径>     在改动一个已有文件之前，把它在检查点 08 的 parent 中的版本
                                记录到 packages/pi-course/checkpoints/08/before/<路径>

<目录> 必须不存在或为空，其上级目录必须存在；相对路径从你运行 npm 的目录算起；
课程仓库里只能写到 practice/ 下（packages/ 里的目录会被主仓库一起编译），除非加 --force。
Usage: npm run checkpoint -w @pi/course -- [id] [--diff [parent] | --write parent|target <dir> | --diagnostic | --lab 7.N]`;

const options = {
  help: { type: "boolean", short: "h" },
  diff: { type: "boolean" },
  diagnostic: { type: "boolean" },
  write: { type: "string" },
  lab: { type: "string" },
  check: { type: "boolean" },
  "record-before": { type: "string" },
  force: { type: "boolean" },
  new: { type: "string" },
  title: { type: "string" },
  chapter: { type: "string" },
  package: { type: "string" },
  teaching: { type: "string" },
  changes: { type: "string" },
  labs: { type: "string" },
  "test-name": { type: "string" },
  prove: { type: "boolean" },
} as const;

/** Runs the command and returns what to print on stdout. */
export async function checkpoint(argv: string[], from: string = invocationDir()): Promise<string> {
  // `--diff=parent` reads as `--diff parent`; parseArgs would refuse a value on a flag.
  const args = argv.flatMap((arg) => (arg.startsWith("--diff=") ? ["--diff", arg.slice("--diff=".length)] : [arg]));
  const { positionals, values } = parseCli(args, options, checkpointUsage);
  if (values.help) return checkpointHelp;
  const [id, dirArgument, ...rest] = positionals;
  const recordPath = values["record-before"];
  const modes = [
    values.diff,
    values.write !== undefined,
    values.diagnostic,
    values.lab !== undefined,
    values.check,
    recordPath !== undefined,
    values.new !== undefined,
    values.prove,
  ].filter(Boolean).length;
  if (modes > 1)
    throw new UsageError("--diff、--write、--diagnostic、--lab 与维护者选项一次只能用一个（--help 查看用法）。");
  if (values.new !== undefined) {
    if (positionals.length > 0)
      throw new UsageError(`--new 的编号写在它后面（--new 10），多余的参数：${positionals.join(" ")}。`);
    return newCheckpoint(await newRequest(values.new, values, process.stdin.isTTY === true));
  }
  if (values.check) {
    if (positionals.length > 0)
      throw new UsageError(
        `--check 不接受参数，收到 ${positionals.join(" ")}：它一次检查整个课程（npm run checkpoint -w @pi/course -- --check，约 1 秒）；只证明一章用 npm run checkpoint -w @pi/course -- ${positionals[0]} --prove。`,
      );
    return checkCourse();
  }
  if (id === undefined) {
    if (modes > 0)
      throw new UsageError(
        "缺少检查点编号：例如 npm run checkpoint -w @pi/course -- 07 --diff，或 npm run diagnostic -- 07。",
      );
    return courseList(loadManifest(), from);
  }
  // `--write <kind> <dir>` and `--diff parent` take the word after the id.
  const extra = values.write === undefined && !values.diff ? [dirArgument, ...rest] : rest;
  if (extra.some((value) => value !== undefined)) {
    throw new UsageError(`多余的参数 ${extra.join(" ")}：--help 查看用法。`);
  }
  if (values.diff && dirArgument !== undefined && dirArgument !== "parent") {
    throw new UsageError(`--diff 后面只能跟 parent，收到 "${dirArgument}"：例如 --diff parent，或只写 --diff。`);
  }
  const found = findCheckpoint(id);
  if (recordPath !== undefined) {
    const written = await recordBefore(found, recordPath);
    return `已记录改动前的版本：${written}\n现在可以改动 ${recordPath}；改完后运行 npm run checkpoint -- --check。`;
  }
  if (values.diff) {
    const diffs = dirArgument === "parent" ? parentDiffs(found) : teachingDiffs(found);
    return diffs.map((diff) => diff.patch).join("\n");
  }
  if (values.prove) return proveReport(found);
  if (values.diagnostic) return diagnosticReport(found, await runDiagnostic(found));
  if (values.lab !== undefined) return formatLabChanges(found, values.lab);
  if (values.write !== undefined) return writeTree(found, values.write, dirArgument, from, values.force ?? false);
  return checkpointCard(found);
}
