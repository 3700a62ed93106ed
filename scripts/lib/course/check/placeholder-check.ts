// What `checkpoint --new` leaves for the instructor to fill: `（待填写）` in the manifest and the
// guide, `TODO(scaffold)` in code. Each one left is a line of `--check`.
import type { Checkpoint } from "../manifest.js";
import { readRepo } from "./read-repo.js";

export const PROSE_PLACEHOLDER = "（待填写）";
export const CODE_PLACEHOLDER = "TODO(scaffold)";

export function placeholderProblems(checkpoint: Checkpoint): string[] {
  const problems: string[] = [];
  const { mode, focusedRun, build, firstRed, ...written } = checkpoint;
  const fields = placeholderFields(written, "");
  if (fields.length > 0) problems.push(`清单里还有待填写的字段：${fields.join("、")}`);
  const files = new Set([...checkpoint.target.adds, ...Object.values(checkpoint.starters)]);
  if (checkpoint.guide !== undefined) files.add(checkpoint.guide);
  for (const file of files) {
    const source = readRepo(file) ?? "";
    const lines = source
      .split("\n")
      .flatMap((line, index) =>
        line.includes(PROSE_PLACEHOLDER) || line.includes(CODE_PLACEHOLDER) ? [index + 1] : [],
      );
    if (lines.length > 0) problems.push(`${file} 还有 ${lines.length} 处待填写（第 ${lines.join("、")} 行）`);
  }
  return problems;
}

function placeholderFields(value: unknown, at: string): string[] {
  if (typeof value === "string")
    return value.includes(PROSE_PLACEHOLDER) || value.includes(CODE_PLACEHOLDER) ? [at] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => placeholderFields(item, `${at}[${index}]`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => placeholderFields(item, at === "" ? key : `${at}.${key}`));
  }
  return [];
}

/** `（待填写）` left in the README (the block `--new` added), as one line; quoted in backticks it is the README naming it. */
export function readmePlaceholders(): string[] {
  const lines = (readRepo("README.md") ?? "")
    .split("\n")
    .flatMap((line, index) =>
      line.replaceAll(`\`${PROSE_PLACEHOLDER}\``, "").includes(PROSE_PLACEHOLDER) ? [index + 1] : [],
    );
  return lines.length === 0 ? [] : [`README.md 还有 ${lines.length} 处待填写（第 ${lines.join("、")} 行）`];
}
