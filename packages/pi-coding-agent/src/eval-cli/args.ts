// `npm run eval` flags. Each mistake is a UsageError: one Chinese line that names the fix.
import { UsageError } from "../host/errors.js";

export interface EvalArgs {
  help: boolean;
  /** A practice directory whose whole chain is evaluated; absent: the course's reference code. */
  from?: string;
  endpoint?: { baseURL: string; model: string; apiKey?: string };
  repeat: number;
  /** Run only the tasks with these names (both parts). */
  only: string[];
  json: boolean;
}

export const EVAL_USAGE = `用法：npm run eval -- [--from practice/14] [--base-url URL --model NAME [--api-key KEY]] [--repeat K] [--only 任务名] [--json]

  默认离线运行课程的参考实现：每个任务用它自己的脚本化策略模型。
  --from DIR        评测练习目录里的整条链（从你开始练的那一章起是你写的）
  --base-url URL    OpenAI 兼容的服务，和 --model 一起给出：同一套任务交给真实模型
  --model NAME      模型名
  --api-key KEY     不给时用 OPENAI_API_KEY（本地服务通常不需要）
  --repeat K        每个任务运行 K 次（默认 1），报告 pass@1 与 pass^K
  --only NAME       只运行这个任务（可以写多次）
  --json            打印 JSON 报告，代替表格

  退出码：离线运行时，每个任务都通过才是 0；有任务没通过是 1；用法错误是 2。
  真实模型的运行完成就是 0（通过率是测量结果）。`;

const VALUE_FLAGS = new Set(["--from", "--base-url", "--model", "--api-key", "--repeat", "--only"]);

export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const args: EvalArgs = { help: false, repeat: 1, only: [], json: false };
  let baseURL: string | undefined;
  let model: string | undefined;
  let apiKey: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index] as string;
    if (flag === "--help" || flag === "-h") {
      args.help = true;
      continue;
    }
    if (flag === "--json") {
      args.json = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag))
      throw new UsageError(`不认识的参数 ${flag}：运行 npm run eval -- --help 查看可用的参数。`);
    const value = argv[index + 1];
    if (value === undefined || value.startsWith("--"))
      throw new UsageError(`${flag} 后面缺少值：例如 ${example(flag)}。`);
    index += 1;
    if (flag === "--from") args.from = value;
    else if (flag === "--base-url") baseURL = value;
    else if (flag === "--model") model = value;
    else if (flag === "--api-key") apiKey = value;
    else if (flag === "--only") args.only.push(value);
    else if (flag === "--repeat") {
      if (!/^[1-9]\d{0,2}$/.test(value))
        throw new UsageError(`--repeat ${value} 不是 1 到 999 之间的整数：例如 --repeat 3。`);
      args.repeat = Number(value);
    }
  }
  if ((baseURL === undefined) !== (model === undefined)) {
    throw new UsageError(
      "--base-url 和 --model 要一起给出：例如 --base-url http://127.0.0.1:11434/v1 --model qwen2.5-coder:7b。",
    );
  }
  if (baseURL !== undefined && model !== undefined) {
    if (!/^https?:\/\/[^\s]+$/.test(baseURL)) {
      throw new UsageError(`--base-url ${baseURL} 不是 http(s) 地址：例如 --base-url http://127.0.0.1:11434/v1。`);
    }
    args.endpoint = apiKey === undefined ? { baseURL, model } : { baseURL, model, apiKey };
  } else if (apiKey !== undefined) {
    throw new UsageError("--api-key 只和 --base-url、--model 一起用。");
  }
  return args;
}

function example(flag: string): string {
  switch (flag) {
    case "--from":
      return "--from practice/14";
    case "--repeat":
      return "--repeat 3";
    case "--only":
      return "--only fix-test";
    case "--base-url":
      return "--base-url http://127.0.0.1:11434/v1";
    case "--model":
      return "--model qwen2.5-coder:7b";
    default:
      return `${flag} VALUE`;
  }
}
