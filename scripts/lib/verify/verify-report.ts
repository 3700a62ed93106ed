// Prints a Verification for the learner: the build error alone, or the lab progress table
// followed by what to do next (first failing assertion, focused command, hint).
import { focusedCommand } from "../commands.js";
import type { Checkpoint } from "../course/manifest.js";
import { displayWidth, padDisplay, type Style } from "../terminal-style.js";
import { nextLab, type Verification } from "./verify-labs.js";

export interface ReportContext {
  checkpoint: Checkpoint;
  /** The practice directory as the learner should type it (relative to where they are when possible). */
  dir: string;
  style: Style;
}

export function formatVerification(verification: Verification, context: ReportContext): string {
  const { checkpoint, dir, style } = context;
  const header = [
    style.title(`Checkpoint ${checkpoint.id} · ${checkpoint.title}`),
    `${style.dim("练习目录：")}${dir}`,
    "",
  ];
  if (!verification.built) {
    return [
      ...header,
      style.bad(`构建失败：${checkpoint.build}`),
      `  ${verification.build.firstError ?? lastLines(verification.build.output)}`,
      "",
      "测试没有运行：先修好这个编译错误，再运行 verify。",
    ].join("\n");
  }

  const { labs } = verification;
  const done = labs.filter((progress) => progress.done).length;
  const rows = [
    ["Lab", "标题", "测试名模式", "通过", ""],
    ...labs.map((progress) => [
      progress.lab.id,
      progress.lab.title,
      progress.lab.pattern,
      `${progress.passed}/${progress.lab.expected}`,
      progress.done ? "✓" : "✗",
    ]),
  ];
  const [titleRow = "", ...labRows] = table(rows);
  const lines = [
    ...header,
    style.dim(titleRow),
    ...labRows.map((row, index) => (labs[index]?.done ? style.ok(row) : row)),
    "",
    `进度：${done}/${labs.length} 个 Lab 完成`,
  ];

  const next = nextLab(labs);
  if (next === undefined) {
    const total = labs.reduce((sum, progress) => sum + progress.passed, 0);
    lines.push(style.ok(`全部 ${total} 项聚焦测试通过。`));
    return lines.join("\n");
  }
  const { lab } = next;
  lines.push("", style.heading(`下一步：Lab ${lab.id} ${lab.title}（实践 ${lab.id} · ${lab.practice}）`));
  if (next.firstFailure !== undefined) {
    lines.push(`  ${style.dim("第一条失败：")}${next.firstFailure.test}`, `    ${style.bad(next.firstFailure.error)}`);
  } else if (next.selected !== lab.expected) {
    lines.push(
      `  模式 "${lab.pattern}" 选中了 ${next.selected} 项测试，应为 ${lab.expected} 项：聚焦测试文件被改动过吗？`,
    );
  }
  lines.push(
    `  ${style.dim("聚焦运行（在练习目录中）：")}`,
    `    ${checkpoint.build}`,
    `    ${focusedCommand(checkpoint, lab.pattern)}`,
    `  ${style.dim("提示：")}${lab.hint}`,
  );
  return lines.join("\n");
}

/** The output's last lines, for a build that failed without a recognisable compiler error. */
function lastLines(output: string): string {
  return output.trim().split(/\r?\n/).slice(-3).join("\n  ");
}

/** Plain-text rows padded to aligned columns. */
function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => displayWidth(row[column] ?? "")))) ?? [];
  return rows.map((row) =>
    `  ${row.map((cell, column) => padDisplay(cell, widths[column] ?? 0)).join("  ")}`.trimEnd(),
  );
}
