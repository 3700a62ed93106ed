// Reads a `node --test --test-reporter=tap` report: the summary counts, every top-level test
// with its status, and the first failure with its error message.

export interface FocusedFailure {
  /** The failing test's name. */
  test: string;
  /** The error message the runner reports for it (first line of a multi-line message). */
  error: string;
}

export interface FocusedTest {
  name: string;
  /** `skip` is also what Node 20 reports for a test the name pattern filtered out. */
  status: "pass" | "fail" | "skip";
}

export interface FocusedResult {
  /** Every top-level test the runner reported, in order. */
  results: FocusedTest[];
  tests: number;
  pass: number;
  fail: number;
  skipped: number;
  /** Tests the pattern selected: `tests − skipped` (Node 20 counts filtered-out tests as skipped). */
  selected: number;
  firstFailure?: FocusedFailure;
  output: string;
}

/** Reads the summary counts and the first failure out of a TAP report. */
export function parseTap(output: string): FocusedResult {
  const count = (name: string): number => {
    const match = new RegExp(`^# ${name} (\\d+)$`, "m").exec(output);
    if (match?.[1] === undefined) throw new Error(`test runner printed no "# ${name}" count:\n${output}`);
    return Number(match[1]);
  };
  const tests = count("tests");
  const skipped = count("skipped");
  const result: FocusedResult = {
    results: topLevelTests(output),
    tests,
    pass: count("pass"),
    fail: count("fail"),
    skipped,
    selected: tests - skipped,
    output,
  };
  const firstFailure = firstTapFailure(output);
  if (firstFailure !== undefined) result.firstFailure = firstFailure;
  return result;
}

function topLevelTests(output: string): FocusedTest[] {
  const tests: FocusedTest[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^(not ok|ok) \d+ - (.*?)( # (SKIP|TODO)\b.*)?$/.exec(line);
    if (match === null) continue;
    const status = match[4] !== undefined ? "skip" : match[1] === "ok" ? "pass" : "fail";
    tests.push({ name: match[2] ?? "", status });
  }
  return tests;
}

function firstTapFailure(output: string): FocusedFailure | undefined {
  const lines = output.split(/\r?\n/);
  const index = lines.findIndex((line) => /^\s*not ok \d+ - /.test(line));
  const header = lines[index];
  if (header === undefined) return undefined;
  const test = header.replace(/^\s*not ok \d+ - /, "").replace(/ # .*$/, "");
  for (let i = index + 1; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    if (/^\s*\.\.\.$/.test(line)) break;
    const match = /^(\s*)error: (.*)$/.exec(line);
    if (match === null) continue;
    const value = match[2] ?? "";
    if (value === "|-" || value === "|" || value === ">-") return { test, error: (lines[i + 1] ?? "").trim() };
    return { test, error: unquoteYaml(value) };
  }
  return { test, error: "" };
}

function unquoteYaml(value: string): string {
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  if (value.startsWith('"') && value.endsWith('"')) return JSON.parse(value) as string;
  return value;
}
