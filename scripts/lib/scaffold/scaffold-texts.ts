// What `checkpoint --new` writes, in the repository's conventions, with every piece the instructor
// must still write marked `（待填写）` (prose, manifest) or `TODO(scaffold)` (code): `--check` lists
// each one left.
import path from "node:path";
import { checkpointCommand, diagnosticCommand, focusedCommand, practiceCommand, verifyCommand } from "../commands.js";
import { COMMAND_HEADING, fromCommand } from "../course/check/command-block-check.js";
import { CODE_PLACEHOLDER, PROSE_PLACEHOLDER } from "../course/check/placeholder-check.js";
import { type Checkpoint, focusedTestCount, labError } from "../course/manifest.js";

const TODO = PROSE_PLACEHOLDER;

/** A new teaching file's target skeleton: the instructor writes the chapter's code here. */
export function teachingSkeleton(file: string): string {
  return [
    `// ${CODE_PLACEHOLDER}: what ${path.posix.basename(file)} does, in one line, and why it lives here.`,
    `// ${CODE_PLACEHOLDER}: the chapter's finished code; the starter keeps its public surface.`,
    "export {};",
    "",
  ].join("\n");
}

/** A starter for a new teaching file: the header, then one stub per lab in the `// Lab N.M ①` convention. */
export function starterSkeleton(checkpoint: Checkpoint): string {
  const [first] = checkpoint.labs;
  const lines = [
    `// Checkpoint ${checkpoint.id} · 学习脚手架：${TODO}公共表面已经声明。${checkpoint.labs.length} 段 Lab 的算法`,
    `// 抛出 \`Lab ${Number(checkpoint.id)}.N … 尚未实现\`，留给你实现。按编号顺序完成 \`// Lab ${Number(checkpoint.id)}.N\` 注释描述的动作，`,
    "// 删除对应的临时错误，然后只运行这一段的测试，例如：",
    `//   ${checkpoint.build}`,
    `//   ${focusedCommand(checkpoint, first?.pattern)}`,
    "// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.",
    "",
  ];
  for (const lab of checkpoint.labs) {
    lines.push(
      `export function lab${lab.id.replace(".", "_")}(): never {`,
      `  // Lab ${lab.id} ①：${TODO}这一步要做什么、为什么。`,
      `  throw new Error(${JSON.stringify(labError(lab))});`,
      "}",
      "",
    );
  }
  return lines.join("\n");
}

/** The focused test: one named test per lab, each assertion carrying its rule in Chinese. */
export function focusedTestSkeleton(checkpoint: Checkpoint): string {
  const imports = checkpoint.teachingFiles
    .filter((file) => file.startsWith(packageFolderOf(checkpoint.focusedTest)))
    .map((file) => {
      const from = path.posix.relative(path.posix.dirname(checkpoint.focusedTest), file).replace(/\.ts$/, ".js");
      return `// ${CODE_PLACEHOLDER}: import { … } from "${from.startsWith(".") ? from : `./${from}`}";`;
    });
  const lines = [
    'import assert from "node:assert/strict";',
    'import { test } from "node:test";',
    ...imports,
    "",
    "/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */",
    "const TEST_TIMEOUT_MS = 5_000;",
    "",
  ];
  for (const lab of checkpoint.labs) {
    lines.push(
      `test(${JSON.stringify(`${lab.pattern}：${TODO}这项测试观察到的行为`)}, { timeout: TEST_TIMEOUT_MS }, async () => {`,
      `  // ${CODE_PLACEHOLDER}: drive the lab's code as the chapter's scenario does, then compare.`,
      `  const observed: unknown = undefined;`,
      `  assert.deepEqual(observed, "${CODE_PLACEHOLDER}", ${JSON.stringify(`${TODO}被违反的章节规则`)});`,
      "});",
      "",
    );
  }
  return lines.join("\n");
}

/** The guide, with chapter 07's parts in order. */
export function guideSkeleton(checkpoint: Checkpoint, previous?: Checkpoint): string {
  const lines = [
    `# 第 ${checkpoint.id} 章 · ${checkpoint.chapter}`,
    "",
    "## 场景",
    "",
    `${TODO}一个学习者会遇到的具体情形：发生了什么，本章之前的代码为什么不够。`,
    "",
    `## Checkpoint ${checkpoint.id} · ${checkpoint.title}`,
    "",
    "```text",
    `模式：重建`,
    `parent：${checkpoint.parent.description}`,
    `target：${checkpoint.target.description}`,
    `教学文件：${checkpoint.teachingFiles.join("、")}`,
    `聚焦测试：${checkpoint.focusedTest}（${focusedTestCount(checkpoint)} 项）`,
    `构建：${checkpoint.build}`,
    `第一次红灯：${checkpoint.firstRed}`,
    `通过证据：${focusedCommand(checkpoint)} 全部 ${focusedTestCount(checkpoint)} 项通过`,
    "```",
    "",
    "## 走读代码",
    "",
    `${TODO}按调用顺序走一遍 target 的代码，给出确切的数据；说明代码为什么放在这个包里。`,
    "",
  ];
  for (const lab of checkpoint.labs) {
    lines.push(
      `### 实践 ${lab.id} · ${lab.practice}`,
      "",
      `- 目标：${TODO}`,
      `- 文件：${Object.values(checkpoint.starters).join("、")}`,
      `- 动作：${TODO}（与 starter 里的 \`// Lab ${lab.id} ①\` 对应）`,
      "- 运行：",
      "",
      "  ```bash",
      `  ${checkpoint.build}`,
      `  ${focusedCommand(checkpoint, lab.pattern)}`,
      "  ```",
      "",
      `- 预期：${lab.expected}/${lab.expected} 通过。`,
      "",
    );
  }
  lines.push(
    `## ${checkpoint.diagnostic.title}`,
    "",
    `${TODO}把正确的实现改错一处，预测哪些测试会变红，再运行 \`npm run diagnostic -- ${checkpoint.id}\` 对照。`,
    "",
    "## 本章验收",
    "",
    `1. ${TODO}`,
    "",
    "## 小结",
    "",
    `${TODO}`,
    "",
    commandBlock(checkpoint, previous),
  );
  return lines.join("\n");
}

/** The checkpoint's row of the README's course table. */
export function readmeRow(checkpoint: Checkpoint): string {
  const files = checkpoint.teachingFiles.map((file) => `\`${file}\``).join("、");
  return `| ${checkpoint.id}     | ${checkpoint.chapter}（[指南](${checkpoint.guide})） | ${files} | ${focusedTestCount(checkpoint)} 项 |`;
}

/**
 * The guide's command block for the checkpoint: every command `--check` asks for, in the order a
 * learner runs them; `previous` is the checkpoint before it (its practice directory is carried in with --from).
 */
export function commandBlock(checkpoint: Checkpoint, previous?: Checkpoint): string {
  const lines = [
    `${COMMAND_HEADING}：练习、聚焦运行、verify、诊断与 --from`,
    "",
    "在仓库根目录新建练习目录（带着上一章你自己的代码时加 `--from`），在练习目录里构建并运行聚焦测试：",
    "",
    "```bash",
    practiceCommand(checkpoint),
    ...(previous === undefined
      ? []
      : [`${fromCommand(checkpoint, previous)}   # 带着你在第 ${previous.id} 章写的代码`]),
    `cd practice/${checkpoint.id}`,
    checkpoint.build,
    focusedCommand(checkpoint),
    "```",
    "",
    `${focusedTestCount(checkpoint)} 项全部失败，第一条红灯是：`,
    "",
    "```text",
    checkpoint.firstRed,
    "```",
    "",
    "每段 Lab 之后重新构建，只运行这一段的测试；回到仓库根目录看进度、卡片、diff 与诊断：",
    "",
    "```bash",
    ...checkpoint.labs.map((lab) => `${focusedCommand(checkpoint, lab.pattern)}   # ${lab.expected}/${lab.expected}`),
    "cd ../..",
    verifyCommand(checkpoint),
    checkpointCommand(checkpoint),
    checkpointCommand(checkpoint, "--diff"),
    diagnosticCommand(checkpoint),
    "```",
    "",
  ];
  return lines.join("\n");
}

/** `packages/x/test/10-y.test.ts` → `packages/x/`. */
function packageFolderOf(file: string): string {
  return `${file.split("/").slice(0, 2).join("/")}/`;
}
