// `npm run demo`: plays chapter 07's README round trip (or another situation of the chapter,
// chapter 08's round trip with the real workspace tools, or chapter 09's Agent) through the real
// runAgentLoop on the scripted model, and prints it as timelines or JSON lines.
import { parseCli } from "./lib/cli/cli-args.js";
import { jsonLines } from "./lib/demo/demo-json.js";
import { isScenarioName, runScenario, type ScenarioName, scenarioNames } from "./lib/demo/demo-scenarios.js";
import { formatRun } from "./lib/demo/demo-text.js";
import { styleFor } from "./lib/terminal-style.js";
import { runCli, UsageError } from "./lib/usage-error.js";

const usageLine = "npm run demo -- [--scenario <名称>] [--json]";

const usage = `用法：${usageLine}

在内置的 ScriptedModel 与内存 read 工具上运行第 07 章的 agent loop，按时间线打印
每次模型请求、每个事件、最终 transcript 与运行结果。workspace 场景换成第 08 章
真正读磁盘的工具，在一个临时 workspace 里运行，结束后（包括 Ctrl-C）删除它；
agent 场景运行第 09 章的 Agent；compaction 场景走 tiny-pi 的上下文压缩（第 11 章），
摘要由内置脚本模型离线给出。

  --scenario <名称>  要运行的情形，默认 readme：
                     ${scenarioNames.join("、")}
  --json             以 JSON lines 输出同一次运行（每行一个对象）
  --help             显示本说明

颜色只在终端中使用；设置 NO_COLOR 可关闭。`;

interface DemoOptions {
  scenario: ScenarioName;
  json: boolean;
  help: boolean;
}

function parseOptions(args: string[]): DemoOptions {
  const { values } = parseCli(
    args,
    { scenario: { type: "string", short: "s" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    usageLine,
    { positionals: false },
  );
  const scenario = values.scenario ?? "readme";
  if (!isScenarioName(scenario)) {
    throw new UsageError(`没有名为 "${scenario}" 的场景；可用场景：${scenarioNames.join("、")}`);
  }
  return { scenario, json: values.json ?? false, help: values.help ?? false };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const run = await runScenario(options.scenario);
  const output = options.json ? jsonLines(run).join("\n") : formatRun(run, styleFor(process.stdout, process.env));
  process.stdout.write(`${output}\n`);
}

await runCli(main);
