// `npm run verify -w @pi/course -- 07 [dir] [--watch]`: builds a practice directory, shows how
// many tests of each lab pass, and for the first unfinished lab its failure, command and hint.
import { parseCli } from "./lib/cli/cli-args.js";
import { findCheckpoint } from "./lib/course/manifest.js";
import { styleFor } from "./lib/terminal-style.js";
import { runCli, UsageError } from "./lib/usage-error.js";
import { displayDir, invocationDir } from "./lib/user-paths.js";
import { resolvePracticeDir } from "./lib/verify/verify-dir.js";
import { isComplete, verifyTree } from "./lib/verify/verify-labs.js";
import { formatVerification } from "./lib/verify/verify-report.js";
import { debouncedRunner, watchTree } from "./lib/verify/verify-watch.js";

const usageLine = "npm run verify -w @pi/course -- <检查点> [练习目录] [--watch]";

const usage = `用法：${usageLine}

构建练习目录，逐个运行每段 Lab 的测试名模式，打印进度表；对第一个未完成的 Lab
给出第一条失败、聚焦运行命令和提示。全部 Lab 通过时退出码为 0。

  <检查点>    例如 07
  [练习目录]  默认是 practice/ 下该检查点最新的练习目录；相对路径从运行 npm 的目录算起
  --watch     练习目录中的文件改动后重新构建并验证（不看 dist/、node_modules/ 与 *.tsbuildinfo），按 Ctrl-C 退出
  --help      显示本说明`;

const DEBOUNCE_MS = 200;

interface VerifyOptions {
  id: string;
  dir: string | undefined;
  watch: boolean;
  help: boolean;
}

function parseOptions(args: string[]): VerifyOptions {
  const { values, positionals } = parseCli(
    args,
    { watch: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    usageLine,
  );
  if (values.help) return { id: "", dir: undefined, watch: false, help: true };
  const [id, dir, ...extra] = positionals;
  if (id === undefined) throw new UsageError("缺少检查点编号，例如 npm run verify -w @pi/course -- 07");
  if (extra.length > 0) throw new UsageError(`多余的参数 ${extra.join(" ")}；只接受检查点编号和一个练习目录`);
  return { id, dir, watch: values.watch ?? false, help: false };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const checkpoint = findCheckpoint(options.id);
  // Under `npm run -w`, the script runs in the workspace folder; relative paths are the learner's.
  const base = invocationDir();
  const dir = resolvePracticeDir(checkpoint, options.dir, base);
  const style = styleFor(process.stdout, process.env);
  const context = { checkpoint, dir: displayDir(dir, base), style };

  const verifyOnce = async (): Promise<boolean> => {
    const verification = await verifyTree(dir, checkpoint);
    process.stdout.write(`${formatVerification(verification, context)}\n`);
    return isComplete(verification);
  };

  if (!options.watch) {
    process.exitCode = (await verifyOnce()) ? 0 : 1;
    return;
  }

  const waiting = style.dim(`\n监视 ${displayDir(dir, base)} 中的改动……（Ctrl-C 退出）`);
  let runs = 0;
  const runner = debouncedRunner(async () => {
    if (process.stdout.isTTY) process.stdout.write("\u001b[2J\u001b[H");
    else if (runs > 0) process.stdout.write(`\n${"─".repeat(40)}\n`);
    runs += 1;
    // One failed round (say, a test run that printed no summary) must not end the watch.
    await verifyOnce().catch((error: unknown) => {
      process.stderr.write(`${style.bad(error instanceof Error ? error.message : String(error))}\n`);
    });
    process.stdout.write(`${waiting}\n`);
  }, DEBOUNCE_MS);
  const watcher = watchTree(dir, () => runner.trigger());
  process.once("SIGINT", () => {
    runner.cancel();
    watcher.close();
    process.stdout.write("\n已停止监视。\n");
    process.exit(0);
  });
  runner.trigger();
}

await runCli(main);
