// Lab 16.4 · code 工具: The `code` tool: the model writes one async JavaScript body that calls tools itself and returns
// what matters; one request instead of one per call. It is a model-only tool: a script cannot call
// `code` again. Its result's `details` carry every nested call (id, name, arguments, outcome), the
// failed run's too, so the views and the session keep what the script did.
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
  let runs = 0;
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
      runs += 1;
      const run = await runCode({
        code: String(args.code),
        tools: reachable(),
        parentId: `code-${runs}`,
        ...(signal === undefined ? {} : { signal }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      });
      if (run.failure === "aborted") throw new Error("the code run was aborted; its pending tool calls were cancelled");
      const details: CodeDetails = { ok: run.ok, calls: run.calls };
      if (run.failure !== undefined) details.failure = run.failure;
      const parts: string[] = [];
      if (run.output !== "") parts.push(`[console]\n${run.output}`);
      if (run.ok)
        parts.push(run.value === undefined ? "[returned undefined]" : `[result]\n${JSON.stringify(run.value)}`);
      else parts.push(`[failed: ${run.failure}] ${run.error}`);
      return { content: [text(parts.join("\n"))], details };
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
