// tiny-pi's command line: flags fixed by the course contract, parsed strictly. Every mistake is
// one Chinese line that names the fix (a UsageError, exit 2); paths are resolved against the
// folder the command was run from (npm's INIT_CWD), not the folder npm switched to.
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "../host/errors.js";
import type { Endpoint } from "../host/run-config.js";
import type { SessionChoice } from "../host/session-store.js";
import type { DeferChoice } from "../host/tool-exposure.js";
import { windowOptions } from "./context-window-args.js";
import { type OutputMode, outputMode } from "./output-mode.js";
import { parseToolNames, type ToolName } from "./tool-names.js";

export const usage =
  "tiny-pi [--base-url URL --model NAME [--api-key KEY] | --model ID] [--workspace DIR] [--tools read,write,edit,bash] " +
  "[--from PRACTICE_DIR | --loop PRACTICE_DIR --tools-from PRACTICE_DIR] [--max-steps N] [--context-window N] [--reserve N] [--mode text|print|json | --json | -p] [--no-session | --resume FILE | --fork FILE] [--leaf ID] " +
  "[--no-context-files] [--trust-extensions] [--trust-mcp] [--yes] [--protected-paths LIST] [--defer-tools all|none|LIST] [prompt]" +
  " | tiny-pi sessions | tiny-pi tree FILE | tiny-pi resources | tiny-pi mcp | tiny-pi export FILE [--out FILE.html]";

/** `tiny-pi sessions`, `tiny-pi tree FILE` and `tiny-pi export FILE`: they only read session files (export writes the page). */
export type SessionCommand =
  | { kind: "sessions" }
  | { kind: "tree"; file: string }
  | { kind: "export"; file: string; out?: string };

/** What tiny-pi does instead of a run: a session command, or `tiny-pi resources` (lists what a run would load). */
export type CliCommand = SessionCommand | { kind: "resources" } | { kind: "mcp" };

/** The folders protected from write and edit when no --protected-paths is given. */
export const DEFAULT_PROTECTED_PATHS = [".git/", ".tiny-pi/", "node_modules/"] as const;

export interface CliArgs {
  /** A real OpenAI-compatible endpoint; absent: the embedded scripted model. */
  endpoint?: Endpoint;
  /** --model without --base-url: an id of models.json in tiny-pi's home (`provider/id`, an id, or a virtual model). */
  modelName?: string;
  /** Absolute path of the workspace the tools work in. */
  workspace: string;
  tools: ToolName[];
  /** Absolute path of a practice tree whose built runAgentLoop replaces the course's. */
  loopDir?: string;
  /** Absolute path of a practice tree whose built createWorkspaceTools replaces the course's. */
  toolsFromDir?: string;
  /** Absolute path of a practice tree whose every chapter's code tiny-pi runs on (learner-code.ts). */
  fromDir?: string;
  maxSteps?: number;
  /** --context-window N and --reserve N (tokens): see context-window.ts. */
  contextWindow?: number;
  reserve?: number;
  /** text: the human view; json: one event per line (--mode json, --json); print: the final answer only (--mode print, -p). */
  mode: OutputMode;
  session: SessionChoice;
  command?: CliCommand;
  /** --no-context-files: no AGENTS.md / CLAUDE.md in the system prompt (skills stay listed). */
  noContextFiles?: true;
  /** --trust-extensions: load the workspace's and the user's extensions without asking (for runs without a terminal). */
  trustExtensions?: true;
  /** --trust-mcp: start the workspace's MCP servers without asking (for runs without a terminal). */
  trustMcp?: true;
  /** --yes: the permission gate allows write, edit and bash without asking (protected paths stay denied). */
  yes?: true;
  /** --protected-paths LIST: workspace paths write and edit may never touch; absent: DEFAULT_PROTECTED_PATHS. */
  protectedPaths?: string[];
  /** --defer-tools all|none|LIST: which extension tools wait for tool_search; absent: all of them above the threshold. */
  deferTools?: DeferChoice;
  /** The prompt words joined by spaces; absent when none was given. */
  prompt?: string;
}

export const cliOptions = {
  "base-url": { type: "string" },
  model: { type: "string" },
  "api-key": { type: "string" },
  workspace: { type: "string" },
  tools: { type: "string" },
  loop: { type: "string" },
  "tools-from": { type: "string" },
  from: { type: "string" },
  "max-steps": { type: "string" },
  "context-window": { type: "string" },
  reserve: { type: "string" },
  mode: { type: "string" },
  json: { type: "boolean" },
  print: { type: "boolean", short: "p" },
  "no-session": { type: "boolean" },
  resume: { type: "string" },
  fork: { type: "string" },
  leaf: { type: "string" },
  "no-context-files": { type: "boolean" },
  "trust-extensions": { type: "boolean" },
  "trust-mcp": { type: "boolean" },
  yes: { type: "boolean", short: "y" },
  "protected-paths": { type: "string" },
  "defer-tools": { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** `from` is the folder relative paths are resolved against (INIT_CWD, else the current directory). */
export function parseCliArgs(argv: string[], from: string): CliArgs | "help" {
  const { values, positionals } = parseStrict(argv);
  if (values.help) return "help";

  const baseURL = nonEmpty(values["base-url"], "--base-url", "例如 --base-url http://localhost:11434/v1");
  const model = nonEmpty(values.model, "--model", "例如 --model qwen2.5-coder:7b");
  const apiKey = nonEmpty(values["api-key"], "--api-key", "请写上密钥，或者去掉 --api-key 改设 OPENAI_API_KEY");
  if (baseURL !== undefined && model === undefined) {
    throw new UsageError("缺少 --model：有了 --base-url 还要给出模型名，例如 --model qwen2.5-coder:7b。");
  }
  if (baseURL === undefined && apiKey !== undefined) {
    throw new UsageError(
      "--api-key 需要 --base-url：例如 --base-url http://localhost:11434/v1（models.json 里的模型用它自己的 apiKey）。",
    );
  }
  if (baseURL !== undefined) checkURL(baseURL);

  const session = sessionChoice(values, from);
  const workspace = nonEmpty(values.workspace, "--workspace", "例如 --workspace .");
  const loop = nonEmpty(values.loop, "--loop", "例如 --loop practice/07");
  const toolsFrom = nonEmpty(values["tools-from"], "--tools-from", "例如 --tools-from practice/08");
  const fromDir = nonEmpty(values.from, "--from", "例如 --from practice/10");
  if (fromDir !== undefined && (loop !== undefined || toolsFrom !== undefined)) {
    const flag = loop !== undefined ? "--loop" : "--tools-from";
    throw new UsageError(
      `--from 和 ${flag} 不能同时使用：--from 已经取练习目录里每一章的代码（loop、工具、Agent、会话），去掉 ${flag}。`,
    );
  }
  const command = exportCommand(positionals, values.out, from) ?? cliCommand(positionals, from);
  const prompt = command === undefined ? positionals.join(" ").trim() : "";

  return {
    ...(baseURL !== undefined && model !== undefined
      ? { endpoint: apiKey === undefined ? { baseURL, model } : { baseURL, model, apiKey } }
      : {}),
    ...(baseURL === undefined && model !== undefined ? { modelName: model } : {}),
    workspace: path.resolve(from, workspace ?? "."),
    tools: values.tools === undefined ? ["read"] : parseToolNames(values.tools),
    ...(loop !== undefined ? { loopDir: path.resolve(from, loop) } : {}),
    ...(toolsFrom !== undefined ? { toolsFromDir: path.resolve(from, toolsFrom) } : {}),
    ...(fromDir !== undefined ? { fromDir: path.resolve(from, fromDir) } : {}),
    ...(values["max-steps"] !== undefined ? { maxSteps: parseMaxSteps(values["max-steps"]) } : {}),
    ...windowOptions(values["context-window"], values.reserve),
    mode: outputMode(values.mode, values.json === true, values.print === true),
    session,
    ...(command !== undefined ? { command } : {}),
    ...(values["no-context-files"] ? { noContextFiles: true as const } : {}),
    ...(values["trust-extensions"] ? { trustExtensions: true as const } : {}),
    ...(values["trust-mcp"] ? { trustMcp: true as const } : {}),
    ...(values.yes ? { yes: true as const } : {}),
    ...(values["protected-paths"] !== undefined
      ? { protectedPaths: parseProtectedPaths(values["protected-paths"]) }
      : {}),
    ...(values["defer-tools"] !== undefined ? { deferTools: parseDeferTools(values["defer-tools"]) } : {}),
    ...(prompt !== "" ? { prompt } : {}),
  };
}

/** `all`, `none`, or extension tool names separated by commas. */
function parseDeferTools(value: string): DeferChoice {
  const trimmed = value.trim();
  if (trimmed === "all" || trimmed === "none") return trimmed;
  const names = trimmed.split(",").map((name) => name.trim());
  if (trimmed === "" || names.some((name) => name === "")) {
    throw new UsageError(
      "--defer-tools 要写 all、none，或逗号分隔的扩展工具名，例如 --defer-tools deploy_site,open_ticket。",
    );
  }
  return names;
}

function sessionChoice(values: ReturnType<typeof parseStrict>["values"], from: string): SessionChoice {
  const resume = nonEmpty(values.resume, "--resume", "例如 --resume .tiny-pi/sessions/<时间>.jsonl");
  const fork = nonEmpty(values.fork, "--fork", "例如 --fork .tiny-pi/sessions/<时间>.jsonl");
  const leaf = nonEmpty(values.leaf, "--leaf", "例如 --leaf a1b2c3d4（tiny-pi tree FILE 列出每个条目的 id）");
  const chosen = [
    values["no-session"] && "--no-session",
    resume !== undefined && "--resume",
    fork !== undefined && "--fork",
  ];
  const flags = chosen.filter((flag): flag is string => typeof flag === "string");
  if (flags.length > 1) {
    throw new UsageError(
      `${flags.join(" 和 ")} 不能同时使用：继续会话用 --resume FILE，从它分出新文件用 --fork FILE，不记录会话用 --no-session。`,
    );
  }
  if (leaf !== undefined && resume === undefined && fork === undefined) {
    throw new UsageError("--leaf 要和 --resume FILE 或 --fork FILE 一起用：它选的是那个会话里的条目。");
  }
  const file = resume ?? fork;
  if (file !== undefined) {
    return {
      kind: resume !== undefined ? "resume" : "fork",
      file: path.resolve(from, file),
      ...(leaf !== undefined ? { leaf } : {}),
    };
  }
  return values["no-session"] ? { kind: "none" } : { kind: "new" };
}

/** `sessions` or `resources` alone, or `tree FILE`: the commands; anything else is a prompt. */
function cliCommand(positionals: string[], from: string): CliCommand | undefined {
  if (positionals.length === 1 && positionals[0] === "sessions") return { kind: "sessions" };
  if (positionals.length === 1 && positionals[0] === "resources") return { kind: "resources" };
  if (positionals.length === 1 && positionals[0] === "mcp") return { kind: "mcp" };
  if (positionals.length === 2 && positionals[0] === "tree") {
    return { kind: "tree", file: path.resolve(from, positionals[1] as string) };
  }
  return undefined;
}

/** `export FILE [--out FILE.html]`; --out belongs to it alone. */
function exportCommand(positionals: string[], out: string | undefined, from: string): SessionCommand | undefined {
  const page = nonEmpty(out, "--out", "例如 --out run.html");
  if (positionals[0] !== "export") {
    if (page !== undefined) throw new UsageError("--out 只和 export 一起用：tiny-pi export FILE --out FILE.html。");
    return undefined;
  }
  if (positionals.length !== 2) {
    throw new UsageError("export 要一个会话文件：tiny-pi export .tiny-pi/sessions/<时间>.jsonl [--out FILE.html]。");
  }
  return {
    kind: "export",
    file: path.resolve(from, positionals[1] as string),
    ...(page !== undefined ? { out: path.resolve(from, page) } : {}),
  };
}

function parseStrict(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: cliOptions, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${flagProblem(error)}。用法：${usage}`);
  }
}

/** parseArgs' own errors are long and English: one Chinese phrase naming the fix instead. */
function flagProblem(error: unknown): string {
  const { code, message = "" } = error as { code?: unknown; message?: string };
  const quoted = message.match(/'([^']*)'/)?.[1] ?? "";
  const flag = quoted.match(/--[\w-]+/)?.[0] ?? quoted;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `未知选项 ${quoted}：请删掉它，或换成 --help 列出的选项`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const takesValue = cliOptions[flag.slice(2) as keyof typeof cliOptions]?.type === "string";
    return takesValue ? `选项 ${flag} 缺少取值：请在 ${flag} 后面写上取值` : `选项 ${flag} 不接受取值：请只写 ${flag}`;
  }
  return `参数有误（${message.split("\n")[0]}）：请对照 --help 修改`;
}

function nonEmpty(value: string | undefined, flag: string, example: string): string | undefined {
  if (value !== undefined && value.trim() === "") throw new UsageError(`${flag} 的取值为空：${example}。`);
  return value;
}

/** `value` with anything between `//` and `@` (a user name and password) left out, for messages. */
function withoutCredentials(value: string): string {
  return value.replace(/\/\/[^/?#]*@/, "//…@");
}

function checkURL(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--base-url "${withoutCredentials(value)}" 不是 URL：请写完整地址，例如 http://localhost:11434/v1。`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(
      `--base-url 只接受 http:// 或 https:// 地址，例如 http://localhost:11434/v1（收到 ${withoutCredentials(value)}）。`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
    // The password itself is never printed back.
    throw new UsageError(
      `--base-url 里不能带用户名或密码：请写 --base-url ${url.href}，密钥用 --api-key（或环境变量 OPENAI_API_KEY）给出。`,
    );
  }
}

/** `".git/,dist"` → `[".git/", "dist/"]`: folders relative to the workspace, each ending in "/"; "" protects nothing. */
function parseProtectedPaths(value: string): string[] {
  if (value.trim() === "") return [];
  return value.split(",").map((entry) => {
    const folder = entry.trim().replaceAll("\\", "/").replace(/^\.\//, "");
    if (folder === "" || folder.startsWith("/") || /^[A-Za-z]:/.test(folder) || folder.split("/").includes("..")) {
      throw new UsageError(
        `--protected-paths 里有"${entry.trim()}"：请写工作区里的相对路径，用逗号分隔，例如 --protected-paths .git/,.tiny-pi/,node_modules/（写 "" 表示不保护）。`,
      );
    }
    return folder.endsWith("/") ? folder : `${folder}/`;
  });
}

function parseMaxSteps(value: string): number {
  const steps = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(steps) || steps < 1) {
    throw new UsageError(`--max-steps 要一个 ≥ 1 的整数（收到 "${value}"），例如 --max-steps 8。`);
  }
  return steps;
}

export const helpText = `用法：${usage}

用真实的 OpenAI 兼容模型（或离线的内置脚本模型）运行第 13 章的 Runtime：第 07 章的 loop（REPL 里是第 09 章的 Agent）、
第 08 章的工作区工具、第 10 章的会话、第 11 章的压缩、第 12 章的资源与扩展。--from practice/NN 时其中你在练习目录里写过的章
用你的代码，其余用课程的参考实现；启动时的一行按部分与章号（如 loop（07））说出每一部分是谁的。

模型
  --base-url URL        OpenAI 兼容服务的地址，例如 Ollama 的 http://localhost:11434/v1
  --model NAME          模型名（有 --base-url 时必填）；没有 --base-url 时是 ~/.tiny-pi/models.json（Pi 的 models.json 格式，
                        TINY_PI_HOME 可改目录）里的模型：provider/id、id，或 virtualModels 里的虚拟模型（第 18 章）
  --api-key KEY         密钥；默认读取 OPENAI_API_KEY，本地服务（Ollama、llama.cpp、vLLM）不需要
  models.json           Pi 的格式：{"providers": {名字: {"baseUrl", "api": "openai-completions", "apiKey", "models": [{"id",
                        "contextWindow", "maxTokens", "cost": {"input", "output", "cacheRead", "cacheWrite"}}]}}}（价格是每百万
                        token 的美元，会话里的 usage.cost 按它算）；另加 "virtualModels": {名字: {"model": "p/id",
                        "compaction": "p/小模型", "fallback": ["q/id"]}}：对话用 model，压缩摘要用 compaction，model 答 5xx
                        或连不上时同一个请求改由 fallback 回答；模型一变，这一轮之后会话里记一条 Pi 的 model_change
  REPL 里 /model [ID] 切换模型并记下 model_change，/thinking [级别] 记下 Pi 的 thinking_level_change；--resume 不给
  --model 时沿用分支上最近选用的模型
  不给 --base-url 和 --model 时使用内置脚本模型：离线重放第 07 章的 README 往返（真实的 read 工具读取工作区里的
  README.md）；此时不给 prompt 就提问“请读取 README.md，并告诉我项目名。”

工具与 loop
  --workspace DIR       工具的工作区（默认：运行 npm 的目录）；工具不能访问它之外的路径
  --tools LIST          逗号分隔，从 read,write,edit,bash,code 中选；默认只有只读的 read；code：模型写一段脚本，
                        在沙箱里调用其他选中的工具（第 16 章）
  --max-steps N         最多请求模型 N 次（默认 32）
  --from DIR            在练习目录 DIR 里你自己写的每一章代码上运行：provider（05，只在有 --base-url 时）、loop（07）、工具（08）、
                        Agent（09）、会话存储与投影（10）、压缩（11）、资源与工具钩子（12）、Runtime 与模式（13），DIR 里有哪一章就用哪一章，
                        其余用课程的；启动时的一行按部分与章号说出哪些是你的（练习目录记下了：没有 --from 建的目录里，更早的章是课程的参考实现）；先检查每个包都用当前源码
                        构建过，这些章以及它们用到的前面各章的聚焦测试全部通过，否则一行说明怎么做（通过的结果按编译产物
                        的内容记下，代码不变时下一次不再重跑）
  --loop DIR            只用 DIR 里你的 runAgentLoop（第 06、07 章的聚焦测试须通过）
  --tools-from DIR      只用 DIR 里你的 createWorkspaceTools（第 08 章的聚焦测试须通过）
                        启动时的一行说出 loop（07）、工具（08）……Runtime（13）各是课程的还是练习目录里你的（provider 只在是你的时候列出）

上下文压缩
  --context-window N    模型的上下文窗口（token）；不给时用服务器 /v1/models 报告的（vLLM 的 max_model_len，
                        或 context_length / context_window / max_context_length），都没有就不自动压缩
  --reserve N           窗口里留给回答的 token（默认窗口的四分之一，最多 16384）
                        每次请求前，tiny-pi 用第 11 章的 buildContext 从会话的当前分支构造上下文：最新一次压缩的摘要，
                        加上它保留的后缀。较早的对话放不下时（窗口 − 预留 − 系统提示与工具 − 5% 估算余量），先向同一个
                        模型发一次摘要请求（提示在 packages/pi-coding-agent/prompts/compaction-summary.md），把
                        compaction 条目追加进会话，打印压缩前后的 token 数，再继续这一轮；一轮的两步之间也会这样做
                        （runAgentLoop 不变：它的每次请求都经过这一层）。只切在整段交互之间，调用和结果不会分开。
                        摘要请求失败、被中止或不是要求的 JSON 时，会话不追加任何条目，这一轮以一行说明结束；
                        最新的一轮本身就放不下时不发请求，一行说明大小。--resume 同样使用 Pi 写的 compaction 条目。
  REPL 里 /compact [要求] 随时压缩：除最新的一轮外都换成摘要，要求（例如“保留文件名”）交给摘要请求

资源、扩展与权限门（第 12 章）
  资源的根按优先级从低到高：tiny-pi 目录（~/.tiny-pi，环境变量 TINY_PI_HOME 可改），工作区所在仓库的根（有 .git 的
  那一层，没有就是文件系统根）到工作区之间的每一层目录，最后是工作区；同名的技能、模板、扩展，后面的根胜出。
                        系统提示 = tiny-pi 自己的几行，加每个根里的 AGENTS.md 与 CLAUDE.md（按这个顺序），再加技能目录
                        （每个技能只有名字、说明与位置；正文在激活时才读）
  --no-context-files    不把 AGENTS.md / CLAUDE.md 放进系统提示（技能目录照常）
  技能                  ~/.tiny-pi/skills/NAME/SKILL.md、.tiny-pi/skills/、.agents/skills/（Agent Skills 格式：name 与
                        description 前置元数据）；模型用 activate_skill 工具激活，REPL 里 /skill:NAME [话] 激活并发送
  模板                  .tiny-pi/prompts/NAME.md（~/.tiny-pi/prompts/ 也行），用 /NAME 参数 调用：$1…$9 是各个参数，
                        $@ 是全部参数，$$ 是 $；带空格的参数用引号包起来
  扩展                  .tiny-pi/extensions/ 与 ~/.tiny-pi/extensions/ 里的 .js、.mjs、.ts（.ts 经 tsx 加载），默认导出
                        (api) => { api.registerTool(…); api.before(…); api.after(…) }。导入之前先决定信任：在终端里
                        第一次运行时逐个询问 (y / n)，信任按真实路径与内容哈希记在 ~/.tiny-pi/trusted-extensions.json，
                        改动过的扩展会再问；不在终端里时不加载，打印一行
  --trust-extensions    不询问，加载工作区与 ~/.tiny-pi 的扩展（不在终端里时用它）
  --trust-mcp           不询问，启动工作区 .tiny-pi/mcp.json 里的 MCP 服务器（不在终端里时用它）
  权限门                内置扩展：write、edit、bash 运行之前，在终端里显示调用（命令，或路径与 diff 预览），问
                        y / n / always for this tool；不在终端里时默认拒绝。被拒绝的调用作为成对的错误结果交给模型，
                        这一轮继续
  -y, --yes             权限门不再询问，直接允许 write、edit、bash（受保护的路径仍然拒绝）
  --protected-paths LIST  write 与 edit 永远不能改动的工作区路径，逗号分隔，默认 .git/,.tiny-pi/,node_modules/
                        （只有一段的名字在任何深度都受保护）；即使有 --yes 也拒绝；写 "" 表示不保护
  --defer-tools all|none|LIST  哪些扩展工具延迟（第 15 章）：延迟的工具不在请求里声明，模型用 tool_search 按需
                        找到；默认扩展工具多于 10 个时全部延迟。--tools 的工作区工具与 activate_skill 总是直接声明
  tiny-pi resources     列出这次会加载什么：各个根、上下文文件、技能、模板、扩展及其信任、谁遮蔽了谁（只读，不导入扩展）
  tiny-pi mcp           列出配置的 MCP 服务器：来源、信任、状态与工具数（只启动已信任的，不调用任何工具）

输出与会话
  --mode MODE           这一轮怎样显示，MODE 是 text、print 或 json：text 是给人看的视图（默认：回答边到边
                        显示，每个工具调用一行）；print 与 json 是第 13 章的两种模式：print 只打印最终回答
                        （同 -p），json 每个事件输出一行 JSON，标准输出里没有别的
  --json                旧的写法，同 --mode json
  -p, --print           同 --mode print：只在标准输出打印最后一条回答的文字（给脚本与管道用）；失败时标准输出为空、一行说明
  --no-session          不记录会话
  --resume FILE         在会话文件的叶上继续，新条目追加到同一个文件
  --fork FILE           把 FILE 从根到叶的分支复制进一个新会话文件（会话头记下 FILE），在新文件里继续；
                        早期的线性会话文件也用它转成第 3 版
  --leaf ID             和 --resume / --fork 一起用：从较早的条目 ID 继续，--resume 时在同一个文件里长出新分支
                        默认每次运行把每条消息在形成时作为条目追加到工作区的 .tiny-pi/sessions/<时间>.jsonl
                        （上游 Pi 的第 3 版会话格式：条目用 id 与 parentId 连成一棵树）
  -h, --help            显示本说明

会话命令（只读会话文件，不运行模型；export 只写出页面）
  tiny-pi sessions      列出这个工作区的会话：名字或第一个问题、条目数、分支数、最后修改时间
  tiny-pi tree FILE     画出会话树：每个条目的 id、角色与开头几个字，标出叶
  tiny-pi export FILE   把会话写成一个自带一切的 HTML 页面（默认与 FILE 同名、同目录的 .html），离线用浏览器打开：
                        会话树（分支、叶、标签、压缩），点一个条目看那条分支的 transcript（每个调用挨着它的结果，
                        没有结果的调用标红），以及当前分支的时间线（模型流、loop、同时运行的工具各一条泳道）
  --out FILE.html       和 export 一起用：页面写到哪里（只写 .html 文件，不覆盖别的文件）
  REPL 里 /tree 画出当前会话树，/branch ID 把叶移到条目 ID（下一条输入从那里长出新分支）

模式
  给出 prompt：运行一轮（逐轮调用 loop，不重试），按 --mode 显示（-p 只打印最终回答）；以 stop 结束时退出码 0，
        否则 1（error、aborted、maxSteps、length）。
  不给 prompt 且在终端里（使用真实模型时）：进入 REPL，跨轮保留对话；/exit 或 Ctrl-D 退出。不在终端里时必须给 prompt。
        模型还在工作时输入的一行转入正在运行的这一轮（第 09 章的 Agent，--resume 的会话也一样）；用 --loop 时排到这一轮之后。
  被 SIGKILL 强行结束也不丢（第 19 章，每次运行都是持久的）：用户提示和它的任务在请求发出之前提交，工具调用的意图在执行之前
        提交，流式文字按批提交。--resume 一行说出恢复了什么：部分回答保留为一条中止的回答，可重放的调用（read）重跑，
        其余的调用配上 interrupted 错误结果；不给 prompt 时（不在终端里）接着做未完成的任务，给了 prompt 时这个提示开始新的任务。
  Ctrl-C 通过 signal 中止当前这一轮（已形成的消息都保留，REPL 继续）；再按一次 Ctrl-C 退出。
  参数有误时打印一行说明，退出码 2；运行失败（连不上服务、401……）退出码 1；读输出的程序先退出了（例如 | head）时安静地以 141 退出。
  tiny-pi 结束时（退出、Ctrl-C、SIGTERM 143、SIGHUP 129）先结束它启动的所有进程，包括 bash 留在后台的。
  密钥不出现在输出与会话文件里（显示为 [redacted]）；.tiny-pi/ 里的 .gitignore 让 git 忽略会话。

例子
  npm run tiny-pi
  npm run tiny-pi -- --from practice/13 --base-url http://localhost:11434/v1 --model qwen2.5-coder:7b --tools read,edit,bash
  npm run tiny-pi -- --base-url … --model … -p "这个项目叫什么？"
  npm run tiny-pi -- --base-url http://localhost:11434/v1 --model qwen2.5-coder:7b "请读取 README.md，并告诉我项目名。"
  OPENAI_API_KEY=sk-... npm run tiny-pi -- --base-url https://api.openai.com/v1 --model gpt-4o-mini --loop practice/07
  npm run tiny-pi -- --from practice/10 "请读取 README.md，并告诉我项目名。"
  npm run tiny-pi -- tree .tiny-pi/sessions/<时间>.jsonl
  npm run tiny-pi -- resources
  npm run tiny-pi -- --base-url … --model … --tools read,edit,bash --yes --trust-extensions "/fix src/a.ts"
  npm run tiny-pi -- export .tiny-pi/sessions/<时间>.jsonl --out run.html
  npm run tiny-pi -- --resume .tiny-pi/sessions/<时间>.jsonl --leaf a1b2c3d4 "换一种说法再问一次"

English: runs chapter 13's Runtime on the course's code (or your own: --from DIR takes every chapter's code a
practice directory has, the provider for --base-url, loop, tools, Agent, session store, compaction, resources with tool hooks and the Runtime;
--from practice/13 carried from 00 runs yours for all of those, practice/19 also chapters 15-19's; --loop/--tools-from one chapter) with the workspace tools against any
OpenAI-compatible endpoint; a prompt runs one turn shown as text, -p (the final answer only) or --mode json (one
Runtime event per line; --json is its old name); a run killed mid tool batch leaves a session --resume continues,
every unsaved call paired with an "interrupted" result; with no --base-url an embedded scripted model replays the chapter's README
round trip offline. Sessions are Pi's session trees (format 3): --resume FILE [--leaf ID] continues or
branches one, --fork FILE copies a branch into a new file, \`sessions\` and \`tree FILE\` show them,
\`export FILE [--out FILE.html]\` writes one offline HTML page: the tree, each branch's transcript and a timeline.
Past the model's window (--context-window N, else the server's /v1/models entry; --reserve N for the
answer) tiny-pi compacts: one summarisation request to the same model, a \`compaction\` entry in the
session, then the summary plus the kept suffix in every request, even between two steps of one turn;
/compact [instructions] in the REPL does it on demand. Resources (chapter 12): AGENTS.md and CLAUDE.md from
~/.tiny-pi (TINY_PI_HOME), each folder from the repository root down and the workspace go into the system prompt in
that order (--no-context-files leaves them out), then the skills catalogue without bodies; skills
(~/.tiny-pi/skills, .tiny-pi/skills, .agents/skills) are activated by the model's activate_skill tool or
/skill:NAME; templates .tiny-pi/prompts/NAME.md run as /NAME args; \`tiny-pi resources\` lists what was found
and what shadowed what. Extensions (.tiny-pi/extensions, ~/.tiny-pi/extensions; .js, .mjs, .ts) are trusted
before import: asked on a terminal and recorded by real path and content hash (a changed file asks again), or
--trust-extensions; otherwise not loaded, in one line. The permission gate, a built-in extension, shows each
write/edit/bash call (command, or path and diff preview) and asks y / n / always for this tool; without a
terminal it denies unless --yes; protected paths (--protected-paths, default .git/,.tiny-pi/,node_modules/) are
denied for write and edit even with --yes. A denied call is its paired error result and the turn goes on.
MCP servers (chapter 17): {"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}} in
~/.tiny-pi/mcp.json and .tiny-pi/mcp.json (nearer wins); a workspace's server is trusted like an extension
(asked on a terminal, recorded by real path and the entry's hash) or --trust-mcp; it gets only the variables
its entry names (and PATH, HOME, the locale); its tools are mcp__<server>__<tool>, deferred behind tool_search
unless "direct": true, gated like write/edit/bash unless "readOnly": true; \`tiny-pi mcp\` lists them.
Exit 0 on stop, 1 on a failed run, 2 on a usage error, 141 when the reader of the output has gone.`;
