// Prints a Verification for the learner: the build errors alone, or the lab progress table
// followed by what to do next (first failing assertion with its diff, focused command, hint).
// The pieces are separate so that `verify` can print each lab's row as soon as it is known.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { focusedCommand } from "../commands.js";
import type { Checkpoint, Lab } from "../course/manifest.js";
import { type BuildResult, teachingNames } from "../run/focused-run.js";
import { displayWidth, padDisplay, type Style } from "../terminal-style.js";
import { type LabProgress, nextLab, type Verification } from "./verify-labs.js";

export interface ReportContext {
  checkpoint: Checkpoint;
  /** The practice directory as the learner should type it (relative to where they are when possible). */
  dir: string;
  style: Style;
  /** The practice directory and the folder the learner stands in: compiler paths are shown relative to it. */
  paths?: { tree: string; from: string };
}

/** Compiler errors shown for a failed build; the count says how many there were in all. */
const SHOWN_ERRORS = 5;

export function formatVerification(verification: Verification, context: ReportContext): string {
  if (!verification.built)
    return [...formatHeader(context), formatBuildFailure(verification.build, context)].join("\n");
  const table = labTable(context.checkpoint, context.style);
  return [
    ...formatHeader(context),
    table.head,
    ...verification.labs.map((progress) => table.row(progress)),
    formatSummary(verification.labs, context),
  ].join("\n");
}

export function formatHeader({ checkpoint, dir, style }: ReportContext): string[] {
  return [style.title(`Checkpoint ${checkpoint.id} · ${checkpoint.title}`), `${style.dim("练习目录：")}${dir}`, ""];
}

export function formatBuildFailure(build: BuildResult, { checkpoint, style, paths }: ReportContext): string {
  const errors = build.errors.map((line) => (paths === undefined ? line : fromLearner(line, paths)));
  const count = errors.length > 1 ? `（${errors.length} 个编译错误）` : "";
  const shown =
    errors.length === 0
      ? [`  ${build.firstError ?? lastLines(build.output)}`]
      : errors.slice(0, SHOWN_ERRORS).map((line) => `  ${line}`);
  if (errors.length > SHOWN_ERRORS) shown.push(style.dim(`  ……还有 ${errors.length - SHOWN_ERRORS} 个`));
  return [
    style.bad(`构建失败${count}：${checkpoint.build}`),
    ...shown,
    "",
    errors.length > 1
      ? "测试没有运行：从第一个编译错误改起（后面的错误常常是它引起的），再运行 verify。"
      : "测试没有运行：先修好这个编译错误，再运行 verify。",
  ].join("\n");
}

/** A tree-relative compiler error line with its path made relative to where the learner stands. */
function fromLearner(line: string, paths: { tree: string; from: string }): string {
  const match = /^(.+?)(\(\d+,\d+\): error TS\d+.*)$/.exec(line);
  if (match === null) return line;
  const shown = path.relative(paths.from, path.join(paths.tree, match[1] ?? ""));
  return `${shown}${match[2]}`;
}

/** The table's title row and a formatter for each lab's row, aligned from the manifest alone. */
export function labTable(checkpoint: Checkpoint, style: Style): { head: string; row(progress: LabProgress): string } {
  const titles = ["Lab", "标题", "测试名模式", "通过", ""];
  const cells = checkpoint.labs.map((lab) => [lab.id, lab.title, lab.pattern, `${lab.expected}/${lab.expected}`, "✓"]);
  const widths = titles.map((title, column) =>
    Math.max(displayWidth(title), ...cells.map((row) => displayWidth(row[column] ?? ""))),
  );
  const line = (row: string[]) =>
    `  ${row.map((cell, column) => padDisplay(cell, widths[column] ?? 0)).join("  ")}`.trimEnd();
  return {
    head: style.dim(line(titles)),
    row(progress) {
      const { lab } = progress;
      const text = line([
        lab.id,
        lab.title,
        lab.pattern,
        `${progress.passed}/${lab.expected}`,
        progress.done ? "✓" : "✗",
      ]);
      return progress.done ? style.ok(text) : text;
    },
  };
}

/** Progress, then either the all-green line or the next lab: its first failure with the diff, command and hint. */
export function formatSummary(labs: LabProgress[], { checkpoint, style, paths }: ReportContext): string {
  const done = labs.filter((progress) => progress.done).length;
  const lines = ["", `进度：${done}/${labs.length} 个 Lab 完成`];
  const next = nextLab(labs);
  if (next === undefined) {
    const total = labs.reduce((sum, progress) => sum + progress.passed, 0);
    lines.push(style.ok(`全部 ${total} 项聚焦测试通过。`));
    return lines.join("\n");
  }
  const { lab } = next;
  lines.push("", style.heading(`下一步：Lab ${lab.id} ${lab.title}（实践 ${lab.id} · ${lab.practice}）`));
  const failure = next.firstFailure;
  if (failure !== undefined) {
    const line =
      failure.crashed !== undefined
        ? crashLine(checkpoint, lab, failure)
        : ((failure.thrown !== undefined && !failure.hung ? thrownLine(failure, failure.thrown, paths) : undefined) ??
          failureLine(failure));
    lines.push(`  ${style.dim("第一条失败：")}${failure.test}`, `    ${style.bad(line)}`);
    const stub = laterStub(checkpoint, lab, failure.error);
    if (stub !== undefined) lines.push(`    ${stub}`);
    const shown = shownValues(failure);
    for (const valueLine of shown.values) lines.push(`    ${valueLine}`);
    for (const diffLine of shown.diff) lines.push(`      ${style.dim(diffLine)}`);
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

type Failure = NonNullable<LabProgress["firstFailure"]>;

/** Lines shown per value an assertion without a diff was given. */
const VALUE_LINES = 6;

/** What the assertion was given: the value of assert.match or assert.throws, or the diff. */
function shownValues(failure: Failure): { values: string[]; diff: string[] } {
  if (failure.actual !== undefined) {
    const thrown = failure.operator === "throws" || failure.operator === "rejects";
    const [first = "", ...rest] = failure.actual.split("\n").slice(0, VALUE_LINES);
    const label = thrown ? "实际抛出的错误：" : "实际值：";
    return {
      values: [`${label}${rest.length === 0 ? JSON.stringify(first) : first}`, ...rest.map((line) => `  ${line}`)],
      diff: [],
    };
  }
  // assert.ok's own diff is `+ false` / `- true`: say what it means instead.
  if (failure.operator === "==" && failure.diff.join("\n") === "+ false\n- true") {
    return { values: ["实际值：false（这条断言要求它成立）"], diff: [] };
  }
  return { values: [], diff: failure.diff };
}

/**
 * When an earlier lab's test died on the stub of a later lab, which lab's branch the code took:
 * the usual cause is a missing await (a Promise taken for the value) or a missing continue/return.
 */
function laterStub(checkpoint: Checkpoint, lab: Lab, error: string): string | undefined {
  const id = /^Lab (\S+) .* 尚未实现$/.exec(error)?.[1];
  const ids = checkpoint.labs.map((candidate) => candidate.id);
  if (id === undefined || ids.indexOf(id) <= ids.indexOf(lab.id)) return undefined;
  const title = checkpoint.labs.find((candidate) => candidate.id === id)?.title ?? "";
  return `你的代码走进了 Lab ${id}（${title}）的分支，那里还没有写：Lab ${lab.id} 的测试本不该走到那里。是不是漏了 await（把 Promise 当成了值）、continue 或 return（执行落进了后面的分支）？`;
}

/**
 * The one line for a test process that died (out of memory, a fatal V8 error, a signal) instead of
 * failing a test: how it died, the likely cause, the lab and test it was in, and how to reproduce it.
 */
function crashLine(checkpoint: Checkpoint, lab: Lab, failure: Failure): string {
  return (
    `聚焦测试进程崩溃了（${failure.crashed}），当时在运行 Lab ${lab.id} 的“${failure.test}”：` +
    `多半是 ${teachingNames(checkpoint)} 里的无限增长（循环里不停往数组或字符串里添加）、走不到头的环` +
    `（遍历时又把元素加回去，或引用绕回自己）或无限递归。` +
    `重现（在练习目录中）：${checkpoint.build}，然后 ${focusedCommand(checkpoint, lab.pattern)}`
  );
}

/** JavaScript's own errors: thrown by code that went wrong, never on purpose. */
const ENGINE_ERRORS = /^(TypeError|RangeError|ReferenceError|SyntaxError)$/;

/**
 * A throw, not an assertion, stopped the test: a JavaScript error (a TypeError…) anywhere, or an error
 * of the learner's own files (a RuntimeError where the test expected a result), not a lab's stub.
 * Undefined for other throws, which are shown as they are.
 */
function thrownLine(
  failure: Failure,
  thrown: NonNullable<Failure["thrown"]>,
  paths: ReportContext["paths"],
): string | undefined {
  const engine = ENGINE_ERRORS.test(thrown.name);
  if (!engine && /尚未实现$/.test(failure.error)) return undefined;
  const rule = "它要检查的规则写在上面的测试名里。";
  const place = paths === undefined ? undefined : learnerFrame(thrown.at, paths);
  if (place !== undefined) {
    const why = engine
      ? "这不是断言失败：测试还没走到检查规则的那一步。"
      : "这项测试没料到这里会抛出：它等的是一个结果，不是异常。";
    return `你的代码抛出了 ${thrown.name}：${failure.error}（在 ${place}）。${why}${rule}`;
  }
  if (!engine) return undefined;
  if (paths === undefined) return `测试在检查规则之前遇到了 ${thrown.name}：${failure.error}。这不是断言失败。${rule}`;
  return `测试在检查规则之前遇到了 ${thrown.name}：${failure.error}（不在你的文件里抛出：多半是你的代码返回或传出的值少了测试要读的部分）。${rule}`;
}

/** The innermost stack frame in the practice tree's own source (not a test, not a dependency), relative to the learner. */
function learnerFrame(frames: readonly string[], paths: { tree: string; from: string }): string | undefined {
  for (const frame of frames) {
    const [, location = "", position = ""] = /^(.*)(:\d+:\d+)$/.exec(frame) ?? [];
    const file = location.startsWith("file://") ? fileURLToPath(location) : location;
    const inTree = path.relative(paths.tree, file);
    if (inTree === "" || inTree.startsWith("..") || path.isAbsolute(inTree)) continue;
    if (inTree.split(/[\\/]/).some((part) => part === "test" || part === "node_modules")) continue;
    return `${path.relative(paths.from, file)}${position}`;
  }
  return undefined;
}

/** The failure's first line; a timeout says what hangs that way. */
function failureLine(failure: Failure): string {
  if (failure.spinning === true) return failure.error;
  if (!failure.hung) return failure.error;
  return `${failure.error}：这项测试没有结束。常见原因是一个永远不 settle 的 Promise（漏了 await、resolve 或 return），或留下的定时器。`;
}

/** The output's last lines, for a build that failed without a recognisable compiler error. */
function lastLines(output: string): string {
  return output.trim().split(/\r?\n/).slice(-3).join("\n  ");
}
