// Reads a `node --test --test-reporter=tap` report: the summary counts, every top-level test
// with its status, and the first failure with its error message.

export interface FocusedFailure {
  /** The failing test's name. */
  test: string;
  /** The first line of the error: the assertion's own message, e.g. a chapter rule. */
  error: string;
  /** The first differing lines of the actual/expected diff (`+ actual`, `- expected`), when there is one. */
  diff: string[];
  /** True when the test never finished: stopped by its timeout, or its promise could never settle. */
  hung: boolean;
  /** True when its whole run was stopped: a synchronous loop that never gave Node's runner back control. */
  spinning?: boolean;
  /**
   * The value an assertion without a diff was given (`assert.match`, `assert.ok`, a validation
   * function of `assert.throws`), as the report printed it; absent when the diff already shows it.
   */
  actual?: string;
  /** The assertion's operator as reported (`match`, `==` for assert.ok, `throws`, `strictEqual`…). */
  operator?: string;
  /**
   * How the test process died, when it did rather than fail a test: the fatal error V8 printed
   * (`FATAL ERROR: … JavaScript heap out of memory`, `Fatal JavaScript invalid size error …`) or the
   * signal that ended it (`signal SIGKILL`). The failure's test is then the file.
   */
  crashed?: string;
  /**
   * When the test failed because something threw before any assertion judged it (not an
   * AssertionError): the error's class and the `path:line:column` of each stack frame, innermost first.
   */
  thrown?: { name: string; at: string[] };
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

/** Diff lines shown for a failure: enough to see the difference, short enough for a summary. */
const DIFF_LINES = 6;

function firstTapFailure(output: string): FocusedFailure | undefined {
  const lines = output.split(/\r?\n/);
  const index = lines.findIndex((line) => /^\s*not ok \d+ - /.test(line));
  const header = lines[index];
  if (header === undefined) return undefined;
  const test = header.replace(/^\s*not ok \d+ - /, "").replace(/ # .*$/, "");
  const fields = yamlFields(lines, index + 1);
  const message = (fields.get("error") ?? "").split("\n");
  const diffStart = message.findIndex((line) => /^\+ actual - expected/.test(line));
  const headline = (diffStart === -1 ? message : message.slice(0, diffStart)).map((line) => line.trim()).find(Boolean);
  const actual = fields.get("actual");
  const expected = fields.get("expected");
  const diff =
    diffStart === -1
      ? fieldDiff(actual, expected)
      : message.slice(diffStart + 1).filter((line) => /^[+-]\s/.test(line));
  const failure: FocusedFailure = {
    test,
    error: headline ?? "",
    diff: bothSides(diff, DIFF_LINES),
    hung:
      fields.get("failureType") === "testTimeoutFailure" ||
      (headline ?? "").startsWith("Promise resolution is still pending"),
  };
  // assert.match and assert.throws report an actual without an expected to diff it against; for
  // assert.throws and assert.rejects it is the error that was thrown, of which its message tells.
  const thrownCheck = fields.get("operator") === "throws" || fields.get("operator") === "rejects";
  if (diffStart === -1 && actual !== undefined && (expected === undefined || thrownCheck))
    failure.actual = thrownMessage(actual) ?? actual;
  const operator = fields.get("operator");
  if (operator !== undefined) failure.operator = operator;
  const crashed = crashOf(output, fields);
  if (crashed !== undefined) failure.crashed = crashed;
  const thrown = thrownByCode(fields);
  if (thrown !== undefined) failure.thrown = thrown;
  return failure;
}

/** A failure that is a throw, not an assertion: the error's class and its stack frames. */
function thrownByCode(fields: Map<string, string>): FocusedFailure["thrown"] {
  // Node's report leaves out `name` for a plain Error; a file that died says only "test failed".
  const name = fields.get("name") ?? "Error";
  if (fields.get("code") !== "ERR_TEST_FAILURE" || fields.get("failureType") !== "testCodeFailure") return undefined;
  if (name === "AssertionError" || fields.get("error") === "test failed" || !fields.has("stack")) return undefined;
  const at = (fields.get("stack") ?? "")
    .split("\n")
    .map((frame) => (/\(([^()]*)\)\s*$/.exec(frame)?.[1] ?? frame).trim())
    .filter((location) => /:\d+:\d+$/.test(location));
  return { name, at };
}

/**
 * Why a file's process died, from its failure's fields and the report: Node's runner writes the
 * process's stderr as `# ` comments, where V8 names its fatal error, and the signal in `signal:`.
 */
function crashOf(output: string, fields: Map<string, string>): string | undefined {
  const signal = fields.get("signal");
  const died = signal !== undefined && signal !== "~" && signal !== "null";
  if (!died && fields.get("error") !== "test failed") return undefined;
  const fatal = /^#[\s\\#]*((?:FATAL ERROR|Fatal JavaScript|Fatal error)\b[^\n]*?)\s*(?:\(see [^)]*\))?\s*$/m;
  const lines = output.split(/\r?\n/);
  const named = lines
    .map((line) => fatal.exec(line)?.[1])
    .filter((line) => line !== undefined && !/^Fatal error in\b/.test(line));
  const first = named[0];
  if (first !== undefined) return first;
  return died ? `signal ${signal}` : undefined;
}

/**
 * The fields of the YAML block that follows a `not ok` line: `key: value` with the value unquoted,
 * and a block value (`key: |-` or a nested mapping) as its lines, de-indented. The first of a
 * repeated key counts: for assert.throws Node prints the thrown error's own `error:` and `stack:`
 * right after an empty `actual:`, at the same indentation; that `error:` becomes the actual.
 */
function yamlFields(lines: string[], from: number): Map<string, string> {
  const fields = new Map<string, string>();
  const set = (name: string, value: string) => {
    if (!fields.has(name)) fields.set(name, value);
  };
  let key: string | undefined;
  let keyIndent = 0;
  let block: string[] = [];
  let emptyActual = false;
  // The thrown error's `error:` as a block (a message of several lines) after an empty `actual:`.
  let errorOfActual = false;
  const close = () => {
    if (errorOfActual && key === "error" && block.length > 0) set("actual", `error: ${dedent(block).join("\n")}`);
    errorOfActual = false;
    emptyActual = key === "actual" && block.every((line) => line.trim() === "");
    if (key !== undefined && block.length > 0) set(key, dedent(block).join("\n"));
  };
  for (let i = from; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    // A block value's own lines (Node's diff may hold a "..." line) are more indented than its key.
    if (key !== undefined && (line.trim() === "" || indent > keyIndent)) {
      block.push(line);
      continue;
    }
    if (/^\s*\.\.\.$/.test(line) || /^\s*(not ok|ok) \d+ - /.test(line) || /^\s*# Subtest: /.test(line)) break;
    const match = /^(\s*)([A-Za-z_]+): ?(.*)$/.exec(line);
    if (match === null) continue;
    close();
    key = undefined;
    block = [];
    const value = match[3] ?? "";
    if (value === "" || value === "|-" || value === "|" || value === ">-") {
      key = match[2];
      keyIndent = match[1]?.length ?? 0;
      errorOfActual = emptyActual && key === "error";
    } else if (emptyActual && match[2] === "error") {
      set("actual", `error: ${value}`);
    } else {
      set(match[2] ?? "", unquoteYaml(value));
    }
  }
  close();
  return fields;
}

function dedent(block: string[]): string[] {
  while (block.length > 0 && block.at(-1)?.trim() === "") block.pop();
  const indent = Math.min(
    ...block.filter((line) => line.trim() !== "").map((line) => /^\s*/.exec(line)?.[0].length ?? 0),
  );
  return block.map((line) => line.slice(indent));
}

/**
 * At most `limit` diff lines, in their order, with both sides in view: when one side's block is long
 * (a whole object added), its first lines alone would hide what was expected, so each side keeps
 * at least half of the lines it has.
 */
function bothSides(all: string[], limit: number): string[] {
  if (all.length <= limit) return all;
  // Lines of brackets and commas alone (`-   {`) say nothing of the difference: show lines with content.
  const informative = all.filter((line) => /[\p{L}\p{N}]/u.test(line.slice(1)));
  const diff = informative.length > 0 ? informative : all;
  if (diff.length <= limit) return diff;
  const actual = diff.filter((line) => line.startsWith("+"));
  const expected = diff.filter((line) => line.startsWith("-"));
  const half = Math.floor(limit / 2);
  const keepExpected = Math.min(expected.length, Math.max(half, limit - actual.length));
  const keepActual = Math.min(actual.length, limit - keepExpected);
  const shown: string[] = [];
  let actualLeft = keepActual;
  let expectedLeft = keepExpected;
  for (const line of diff) {
    if (line.startsWith("+") ? actualLeft-- > 0 : expectedLeft-- > 0) shown.push(line);
  }
  return shown;
}

/** `+`/`-` lines of the reported actual and expected values, when the message carries no diff. */
function fieldDiff(actual: string | undefined, expected: string | undefined): string[] {
  if (actual === undefined || expected === undefined) return [];
  const actualLines = actual.split("\n");
  const expectedLines = expected.split("\n");
  const changed: string[] = [];
  for (let i = 0; i < Math.max(actualLines.length, expectedLines.length); i += 1) {
    if (actualLines[i] === expectedLines[i]) continue;
    if (actualLines[i] !== undefined) changed.push(`+ ${actualLines[i]}`);
    if (expectedLines[i] !== undefined) changed.push(`- ${expectedLines[i]}`);
  }
  return changed;
}

/** The message of a thrown error as Node's TAP reporter prints it (`error: 'disk on fire'` and its stack). */
function thrownMessage(block: string): string | undefined {
  const [first = "", ...rest] = block.split("\n");
  const match = /^(?:error|message): (.+)$/.exec(first);
  if (match?.[1] === undefined) return undefined;
  // A message of several lines came as a YAML block: its lines are the message as it was.
  return rest.length === 0 ? unquoteYaml(match[1]) : [match[1], ...rest].join("\n");
}

/**
 * A one-line value as Node's TAP reporter writes it: util.inspect's quoting ('…', "…" or `…`, with
 * JavaScript escapes such as \\ and \n), not YAML's. Unquoted values are taken as they are.
 */
function unquoteYaml(value: string): string {
  const quote = value[0];
  if (value.length < 2 || (quote !== "'" && quote !== '"' && quote !== "`") || !value.endsWith(quote)) return value;
  return value
    .slice(1, -1)
    .replace(/\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|[\s\S])/g, (_, sequence: string) => {
      if (sequence.length > 1) return String.fromCodePoint(Number.parseInt(sequence.replace(/^[xu]\{?|\}$/g, ""), 16));
      return JS_ESCAPES[sequence] ?? sequence;
    });
}

const JS_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };
