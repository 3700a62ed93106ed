// Checkpoint 16 · 学习脚手架：code 工具。参数的 schema、只给模型的 reachable() 与列出可调用工具的 description 已经写好。
// Lab 16.4 的部分先抛出“尚未实现”的临时错误。按编号完成 `// Lab 16.4` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="code 工具" packages/pi-coding-agent/dist/test/16-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { type Tool, type ToolOutput, text } from "@pi/core";
import type { CodeLimits } from "./limits.js";
import type { NestedCall } from "./nested-calls.js";
import { type CodeFailure, runCode } from "./sandbox.js";

export const CODE_TOOL_NAME = "code";

export interface CodeToolOptions {
  /** The tools a script may call, asked at each run (chapter 15's callable set, or the registry's tools). */
  callable: () => readonly Tool[];
  limits?: Partial<CodeLimits>;
}

/** What `details` holds for a code call. */
export interface CodeDetails {
  ok: boolean;
  failure?: CodeFailure;
  calls: NestedCall[];
}

export function createCodeTool(options: CodeToolOptions): Tool {
  const runs = 0;
  // Listing the callable tools may read every definition of a registry that holds this tool too:
  // while its own description is being asked for, it answers "" instead of asking again.
  let describing = false;
  const reachable = () => options.callable().filter((tool) => tool.name !== CODE_TOOL_NAME);
  return {
    name: CODE_TOOL_NAME,
    get description() {
      if (describing) return "";
      describing = true;
      try {
        return describe(reachable());
      } finally {
        describing = false;
      }
    },
    parameters: {
      type: "object",
      properties: {
        code: { type: "string", description: "The body of an async JavaScript function; `return` the result." },
      },
      required: ["code"],
      additionalProperties: false,
    },
    async execute(args, { signal }): Promise<ToolOutput> {
      // Lab 16.4 ①：runs += 1；await runCode({ code: String(args.code), tools: reachable(), parentId: `code-${runs}`,
      // signal, limits })（signal 与 options.limits 是 undefined 时不传）：reachable() 去掉了 code 自己，脚本不能再调用它。
      // Lab 16.4 ②：failure 是 "aborted" 就抛出一行错误（说出运行被中止、在途的调用被取消）：循环看到中止，这一轮以
      // aborted 结束。其他失败（timeout、limit…）不抛出：它们是给模型看的结果，循环接着走。
      // Lab 16.4 ③：details = { ok, calls }，有 failure 就加上；content 是一段文字：有输出先是 `[console]\n…`，
      // 成功再是 `[result]\n` + JSON.stringify(value)（返回 undefined 时这一段只是 "[returned undefined]"），失败是
      // `[failed: ${failure}] ${error}`，各段用 "\n" 连起来。
      throw new Error("Lab 16.4 code 工具 尚未实现");
    },
  };
}

function describe(tools: readonly Tool[]): string {
  const lines = tools.map((tool) => {
    const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
    return `- tools.${tool.name}({ ${Object.keys(properties).join(", ")} }): ${tool.description.split("\n", 1)[0]}`;
  });
  return [
    "Run one JavaScript script (the body of an async function) in a sandbox, to do many tool calls in one step.",
    "Inside, `await tools.<name>(args)` calls a tool and resolves to its text output (rejects with its error);",
    "console.log output and the JSON of the returned value come back. No process, require, imports, timers or network.",
    "Return only what matters (a summary, not whole files). Tools a script can call:",
    ...(lines.length > 0 ? lines : ["- (none)"]),
  ].join("\n");
}
