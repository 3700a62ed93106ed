// The eval's table: one row per run offline, one row per task (pass@1, pass^K) against a real model.
import type { CaseReport, Outcome, SuiteSummary } from "../eval/index.js";

export function verdictLabel(outcome: Outcome): string {
  switch (outcome.verdict) {
    case "pass":
      return "通过";
    case "error":
      return `错误（${outcome.phase} 阶段）`;
    default:
      return outcome.reason === "task"
        ? `失败（${outcome.unmet} 项检查没有满足）`
        : `失败（活动路径：${outcome.reason}）`;
  }
}

function render(header: string[], rows: string[][]): string {
  const width = (text: string) => [...text].reduce((total, char) => total + (char.charCodeAt(0) > 0x2e80 ? 2 : 1), 0);
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => width(row[column] ?? ""))));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell + " ".repeat((widths[column] ?? 0) - width(cell)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function runsTable(reports: readonly CaseReport[]): string {
  return render(
    ["任务", "判决", "steps", "calls", "tokens", "时间"],
    reports.map((report) => [
      report.task,
      verdictLabel(report.outcome) + report.secondary.map((s) => `，另：${s.phase} 失败`).join(""),
      String(report.evidence.steps),
      String(report.evidence.calls),
      String(report.evidence.tokens),
      seconds(report.evidence.ms),
    ]),
  );
}

export function ratesTable(summary: SuiteSummary, repeat: number): string {
  const percent = (rate: number) => `${(rate * 100).toFixed(0)}%`;
  return render(
    ["任务", "通过/运行", "pass@1", `pass^${repeat}`, "tokens", "时间"],
    [
      ...summary.tasks.map((task) => [
        task.task,
        `${task.passes}/${task.runs}`,
        percent(task.passAt1),
        percent(task.passAll),
        String(task.tokens),
        seconds(task.ms),
      ]),
      ["总体", "", percent(summary.passAt1), percent(summary.passAll), String(summary.tokens), seconds(summary.ms)],
    ],
  );
}
