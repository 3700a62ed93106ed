// `npm run verify -w @pi/course -- 07 [dir] [--watch]` (or `npm run verify` inside a practice
// directory): builds a practice directory, shows how many tests of each lab pass, row by row as the
// labs finish, and for the first unfinished lab its failure, command and hint.
import { existsSync } from "node:fs";
import { parseCli } from "./lib/cli/cli-args.js";
import { practiceCommand } from "./lib/commands.js";
import { findCheckpoint, repoRoot } from "./lib/course/manifest.js";
import { RunCancelledError } from "./lib/run/focused-run.js";
import { type Style, styleFor } from "./lib/terminal-style.js";
import { checkPracticeTree } from "./lib/trees/tree-health.js";
import { runCli, UsageError } from "./lib/usage-error.js";
import { invocationDir, practiceDirShown } from "./lib/user-paths.js";
import { enclosingPracticeTree, resolvePracticeDir } from "./lib/verify/verify-dir.js";
import { isComplete, verifyTree } from "./lib/verify/verify-labs.js";
import {
  formatBuildFailure,
  formatHeader,
  formatSummary,
  labTable,
  type ReportContext,
} from "./lib/verify/verify-report.js";
import { debouncedRunner, watchTree } from "./lib/verify/verify-watch.js";

const usageLine = "npm run verify -w @pi/course -- <检查点> [练习目录] [--watch]";

const usage = `用法：${usageLine}
      （在练习目录里：npm run verify [-- --watch]）

构建练习目录，逐个运行每段 Lab 的测试名模式，每段一结束就打印它的一行；对第一个未完成的 Lab
给出第一条失败（断言说明的章节规则与 actual/expected 的差异）、聚焦运行命令和提示。全部 Lab 通过时退出码为 0。

  <检查点>    例如 07；在练习目录里可以省略
  [练习目录]  默认是你所在的练习目录，否则是 practice/ 下该检查点最新的练习目录；相对路径从运行 npm 的目录算起
  --watch     练习目录中的文件改动后重新构建并验证（不看 dist/、node_modules/ 与 *.tsbuildinfo）；
              运行中再次保存会取消这次运行、重新开始；按 Ctrl-C 退出
  --help      显示本说明`;

const DEBOUNCE_MS = 200;

interface VerifyOptions {
  id: string;
  dir: string | undefined;
  watch: boolean;
  help: boolean;
}

function parseOptions(args: string[], from: string): VerifyOptions {
  const { values, positionals } = parseCli(
    args,
    { watch: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    usageLine,
  );
  if (values.help) return { id: "", dir: undefined, watch: false, help: true };
  const [id = enclosingPracticeTree(from)?.id, dir, ...extra] = positionals;
  if (id === undefined) throw new UsageError("缺少检查点编号，例如 npm run verify -w @pi/course -- 07");
  if (extra.length > 0) throw new UsageError(`多余的参数 ${extra.join(" ")}；只接受检查点编号和一个练习目录`);
  return { id, dir, watch: values.watch ?? false, help: false };
}

/** Where verify writes: what it prints as it goes, and the progress line it rewrites on a terminal. */
class Screen {
  private pending = false;
  constructor(private readonly style: Style) {}

  line(text: string): void {
    this.clearProgress();
    process.stdout.write(`${text}\n`);
  }

  /** A line saying what is running; on a terminal it is replaced by whatever comes next. */
  progress(text: string): void {
    this.clearProgress();
    if (process.stdout.isTTY) {
      process.stdout.write(this.style.dim(text));
      this.pending = true;
    } else {
      process.stdout.write(`${text}\n`);
    }
  }

  private clearProgress(): void {
    if (!this.pending) return;
    process.stdout.write("\r\u001b[2K");
    this.pending = false;
  }
}

async function main(): Promise<void> {
  const base = invocationDir();
  const options = parseOptions(process.argv.slice(2), base);
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const checkpoint = findCheckpoint(options.id);
  // Under `npm run -w`, the script runs in the workspace folder; relative paths are the learner's.
  const dir = resolvePracticeDir(checkpoint, options.dir, base);
  const style = styleFor(process.stdout, process.env);
  // `verify | head` closes the pipe early: the output just stops.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
  const screen = new Screen(style);
  // Run inside the practice directory itself, it is named as the course names it: practice/07-2.
  const shown = practiceDirShown(dir, base, repoRoot);
  const context: ReportContext = { checkpoint, dir: shown, style, paths: { tree: dir, from: base } };

  const verifyOnce = async (signal?: AbortSignal): Promise<boolean> => {
    // A tree that cannot be verified is one line on its own, before any header.
    checkPracticeTree(dir, checkpoint);
    for (const line of formatHeader(context)) screen.line(line);
    screen.progress(`构建中：${checkpoint.build} ……`);
    const table = labTable(checkpoint, style);
    let finished = 0;
    const verification = await verifyTree(dir, checkpoint, {
      signal,
      onBuild(build) {
        if (!build.ok) return;
        screen.line(table.head);
        screen.progress(`运行 ${checkpoint.labs.length} 段 Lab 的测试（已运行 0/${checkpoint.labs.length} 段）……`);
      },
      onLab(progress) {
        finished += 1;
        screen.line(table.row(progress));
        // On a terminal the progress line is rewritten under the rows; in a log one such line is enough.
        if (finished < checkpoint.labs.length && process.stdout.isTTY)
          screen.progress(`运行 Lab 测试（已运行 ${finished}/${checkpoint.labs.length} 段）……`);
      },
    });
    if (!verification.built) screen.line(formatBuildFailure(verification.build, context));
    else screen.line(formatSummary(verification.labs, context));
    return isComplete(verification);
  };

  if (!options.watch) {
    process.exitCode = (await verifyOnce()) ? 0 : 1;
    return;
  }

  const waiting = style.dim(`\n监视 ${shown} 中的改动……（Ctrl-C 退出）`);
  let runs = 0;
  const runner = debouncedRunner(async (signal) => {
    if (process.stdout.isTTY) process.stdout.write("\u001b[2J\u001b[H");
    else if (runs > 0) process.stdout.write(`\n${"─".repeat(40)}\n`);
    runs += 1;
    if (!existsSync(dir)) {
      screen.line(
        style.bad(
          `练习目录 ${shown} 不见了：恢复它，或用 ${practiceCommand(checkpoint, shown)} 重新创建；它回来后自动继续（Ctrl-C 退出）。`,
        ),
      );
      return;
    }
    // One failed round (say, a test run that printed no summary) must not end the watch.
    try {
      await verifyOnce(signal);
    } catch (error) {
      if (error instanceof RunCancelledError) {
        screen.line(style.dim("文件又改动了：取消这次运行，重新开始……"));
        return;
      }
      screen.line(style.bad(error instanceof Error ? error.message : String(error)));
    }
    screen.line(waiting);
  }, DEBOUNCE_MS);
  const watcher = watchTree(dir, () => runner.trigger());
  process.once("SIGINT", () => {
    runner.cancel();
    void watcher.close();
    process.stdout.write("\n已停止监视。\n");
    process.exit(0);
  });
  runner.trigger();
}

await runCli(main);
