// Source mutations by exact find/replace, for the chapter's diagnostic and the mutation check.
// A `find` that no longer occurs exactly once is an error, so a check built on it cannot pass
// silently after the source changed.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { FocusedResult } from "../../../packages/pi-course-kit/src/tap-report.js";
import { type Checkpoint, repoRoot } from "../course/manifest.js";
import { buildTree, runFocused } from "../run/focused-run.js";
import { withTempTree } from "../trees/temp-tree.js";
import { UsageError } from "../usage-error.js";

export interface Mutation {
  /** Repository-relative file to mutate, e.g. `packages/pi-course/src/agent-loop.ts`. */
  file: string;
  find: string;
  replace: string;
}

/** A named mistake planted in the source by one or more mutations, for a mutation check. */
export interface Mutant {
  name: string;
  mutations: Mutation[];
}

const agentLoop = "packages/pi-course/src/agent-loop.ts";

/** Mistakes in chapter 07's loop that both mutation checks plant: the focused tests' and the property suite's. */
export const loopMutants = {
  completionOrder: {
    name: "结果按完成顺序而不是调用顺序追加",
    mutations: [
      {
        file: agentLoop,
        find: "      const results = await Promise.all(\n",
        replace: "      const completed: ToolResultMessage[] = [];\n      const results = await Promise.all(\n",
      },
      {
        file: agentLoop,
        find: "            const result = await executeOne(call);\n",
        replace: "            const result = await executeOne(call);\n            completed.push(result);\n",
      },
      {
        file: agentLoop,
        find: "      messages.push(...results);\n",
        replace: "      messages.push(...completed, ...results.filter((result) => !completed.includes(result)));\n",
      },
    ],
  },
  noPostBatchAbortCheck: {
    name: "删除工具批次之后的取消检查",
    mutations: [
      { file: agentLoop, find: '      if (options.signal?.aborted) return finish("aborted", steps);\n', replace: "" },
    ],
  },
  secondTurnEnd: {
    name: "finish() 发出第二个 turn_end",
    mutations: [
      {
        file: agentLoop,
        find: '    emit(options, { type: "turn_end", reason, steps });\n',
        replace:
          '    emit(options, { type: "turn_end", reason, steps });\n    emit(options, { type: "turn_end", reason, steps });\n',
      },
    ],
  },
} satisfies Record<string, Mutant>;

/** `source` with `mutation.find` replaced; throws unless `find` occurs exactly once. */
export function mutateSource(source: string, mutation: Mutation): string {
  const first = source.indexOf(mutation.find);
  if (first === -1) {
    throw new UsageError(
      `改动的 find 不在 ${mutation.file} 里：${JSON.stringify(mutation.find.trim())}（npm run checkpoint -w @pi/course -- --check 列出清单里的这类问题）`,
    );
  }
  if (source.indexOf(mutation.find, first + 1) !== -1) {
    throw new UsageError(
      `改动的 find 在 ${mutation.file} 里出现不止一次：${JSON.stringify(mutation.find.trim())}：多带几行上下文`,
    );
  }
  return source.slice(0, first) + mutation.replace + source.slice(first + mutation.find.length);
}

/**
 * The files the mutations touch, with every mutation applied in order; `read` gives a file's
 * unmutated content (by default the live repository's).
 */
export function mutatedFiles(
  mutations: Mutation[],
  read: (file: string) => string = (file) => readFileSync(path.join(repoRoot, file), "utf8"),
): Record<string, string> {
  const files: Record<string, string> = {};
  for (const mutation of mutations) {
    const source = files[mutation.file] ?? read(mutation.file);
    files[mutation.file] = mutateSource(source, mutation);
  }
  return files;
}

/**
 * Builds the target tree with `files` replaced in a temp folder and runs its focused tests
 * (all, or those matching `pattern`). A build failure is an error: a mutant must compile.
 */
export async function runTargetWith(
  checkpoint: Checkpoint,
  files: Record<string, string>,
  pattern?: string,
): Promise<FocusedResult> {
  return withTempTree(checkpoint, "target", files, async (dir) => {
    const build = await buildTree(dir, checkpoint);
    if (!build.ok) throw new Error(`mutant does not build: ${build.firstError ?? build.output}`);
    return runFocused(dir, checkpoint, pattern);
  });
}
