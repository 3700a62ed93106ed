// `npm run demo`: plays chapter 07's README round trip (or another situation of the chapter,
// chapter 08's round trip with the real workspace tools, or chapter 09's Agent) through the real
// runAgentLoop on the scripted model, and prints it as timelines or JSON lines.
import path from "node:path";
import { pageOutProblem, writePage } from "../packages/pi-coding-agent/src/cli/run-view/write-page.js";
import { parseCli } from "./lib/cli/cli-args.js";
import { demoPage } from "./lib/demo/demo-html.js";
import { jsonLines } from "./lib/demo/demo-json.js";
import { isScenarioName, type ScenarioName, scenarioNames } from "./lib/demo/demo-run.js";
import { runScenario } from "./lib/demo/demo-scenarios.js";
import { formatRun } from "./lib/demo/demo-text.js";
import { styleFor } from "./lib/terminal-style.js";
import { runCli, UsageError } from "./lib/usage-error.js";

const usageLine = "npm run demo -- [--scenario <名称>] [--json | --html <文件.html>]";

const usage = `用法：${usageLine}

在内置的 ScriptedModel 与内存 read 工具上运行第 07 章的 agent loop，按时间线打印
每次模型请求、每个事件、最终 transcript 与运行结果。workspace 场景换成第 08 章
真正读磁盘的工具，在一个临时 workspace 里运行，结束后（包括 Ctrl-C）删除它；
agent 场景运行第 09 章的 Agent；compaction 场景走 tiny-pi 的上下文压缩（第 11 章），
摘要由内置脚本模型离线给出。

  --scenario <名称>  要运行的情形，默认 readme：
                     ${scenarioNames.join("、")}
  --json             以 JSON lines 输出同一次运行（每行一个对象）
  --html <文件.html> 把同一次运行写成一个自带一切的 HTML 页面（离线打开）：会话树与 transcript
                     （每个调用挨着它的结果），以及模型流、loop、每个同时运行的工具各一条泳道的时间线
  --help             显示本说明

颜色只在终端中使用；设置 NO_COLOR 可关闭。`;

interface DemoOptions {
  scenario: ScenarioName;
  json: boolean;
  /** Absolute path of the page to write. */
  html?: string;
  help: boolean;
}

function parseOptions(args: string[]): DemoOptions {
  const { values } = parseCli(
    args,
    {
      scenario: { type: "string", short: "s" },
      json: { type: "boolean" },
      html: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    usageLine,
    { positionals: false },
  );
  const scenario = values.scenario ?? "readme";
  if (!isScenarioName(scenario)) {
    throw new UsageError(`没有名为 "${scenario}" 的场景；可用场景：${scenarioNames.join("、")}`);
  }
  if (values.json && values.html !== undefined) throw new UsageError("--json 和 --html 只能选一个：去掉其中一个。");
  const html = values.html === undefined ? undefined : path.resolve(process.env.INIT_CWD ?? process.cwd(), values.html);
  const problem = html === undefined ? undefined : pageOutProblem(html);
  if (problem !== undefined) throw new UsageError(problem);
  return {
    scenario,
    json: values.json ?? false,
    ...(html !== undefined && { html }),
    help: values.help ?? false,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const run = await runScenario(options.scenario);
  if (options.html !== undefined) {
    const page = demoPage(run);
    try {
      writePage(options.html, page);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const relative = path.relative(process.env.INIT_CWD ?? process.cwd(), options.html);
    const shown = relative === "" || relative.startsWith("..") ? options.html : relative;
    process.stdout.write(
      `已写入 ${shown}（${Math.ceil(Buffer.byteLength(page) / 1024)} kB）：用浏览器打开它，不需要网络。\n`,
    );
    return;
  }
  const output = options.json ? jsonLines(run).join("\n") : formatRun(run, styleFor(process.stdout, process.env));
  process.stdout.write(`${output}\n`);
}

await runCli(main);
